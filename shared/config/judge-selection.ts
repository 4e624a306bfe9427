import { JUDGE_CATALOG, rubricJudge } from '../judges/catalog/index.js';
import { buildCustomJudge } from '../judges/custom-judge.js';
import { buildDagJudge } from '../judges/dag/dag-judge.js';
import { buildEnsemble, type EnsembleDefinition, type EnsembleJudge } from '../judges/ensemble/ensemble-judge.js';
import type { ConfigFile } from './config-schema.js';
import type { JudgeDefinition } from '../judges/judge-definition.js';
import { clientOverridesOf, mergeOverrides, type JudgeOverrides } from '../judge-client/judge-overrides.js';

/**
 * Which judges a run has and with what settings. A judge is named in the
 * `judges` list, as an ensemble member or as a `judge_settings` key by its
 * id, or as a model variant `<id>@<model>`: the same judge, asked of that
 * model, reported under the variant id. A model in a variant may hold
 * letters, digits and `. _ : -`, characters a metric name and a JSON schema
 * name can carry; a model with other characters (`/`) is set with
 * `judge_settings` instead.
 *
 * A judge's settings are, key by key, the last given of: its own entry
 * (custom and decision-tree judges), `judge_settings.<id>`,
 * `judge_settings.<id>@<model>`, and the variant's model.
 */

/** The characters a model in a variant id may hold. */
export const VARIANT_MODEL = /^[A-Za-z0-9._:-]+$/;

export interface JudgeReference {
  readonly baseId: string;
  readonly model?: string;
}

export function parseJudgeReference(reference: string): JudgeReference {
  const at = reference.indexOf('@');
  return at === -1 ? { baseId: reference } : { baseId: reference.slice(0, at), model: reference.slice(at + 1) };
}

/** Built-in, custom and decision-tree judges of a checked config, without their settings. */
export function baseJudges(config: ConfigFile): JudgeDefinition[] {
  const weights = config.rubric_weights;
  const builtIn = JUDGE_CATALOG.map((judge) => (judge.id === 'rubric' && weights !== undefined ? rubricJudge(weights) : judge));
  const custom = (config.custom_judges ?? []).map((definition) => {
    const build = buildCustomJudge(definition);
    if (!build.ok) throw new Error(`Config was not checked before selecting judges: ${build.error.message}`);
    return build.value;
  });
  const trees = (config.dag_judges ?? []).map((definition) => {
    const build = buildDagJudge(definition);
    if (!build.ok) throw new Error(`Config was not checked before selecting judges: dag judge ${definition.id}: ${build.error.problem}`);
    return build.value;
  });
  return [...builtIn, ...custom, ...trees];
}

/** The settings a reference comes to, merged from every place that can give them. */
export function overridesOf(config: ConfigFile, reference: string): JudgeOverrides {
  const { baseId, model } = parseJudgeReference(reference);
  const own = [...(config.custom_judges ?? []), ...(config.dag_judges ?? [])].find((definition) => definition.id === baseId);
  const settings = config.judge_settings ?? {};
  return mergeOverrides(
    own === undefined
      ? undefined
      : { model: own.model, base_url: own.base_url, temperature: own.temperature, max_tokens: own.max_tokens, repeat: own.repeat },
    settings[baseId],
    reference === baseId ? undefined : settings[reference],
    model === undefined ? undefined : { model },
  );
}

/** The judge a reference names, with its settings; undefined when its base judge is unknown. */
export function resolveJudge(config: ConfigFile, base: readonly JudgeDefinition[], reference: string): JudgeDefinition | undefined {
  const { baseId } = parseJudgeReference(reference);
  const judge = base.find((candidate) => candidate.id === baseId);
  if (judge === undefined || judge.kind === 'deterministic' || judge.kind === 'ensemble') return judge;
  const overrides = overridesOf(config, reference);
  const client = clientOverridesOf(overrides);
  return {
    ...judge,
    id: reference,
    ...(reference === baseId ? {} : { promptId: judge.promptId ?? judge.id }),
    ...(client === undefined ? {} : { client }),
    ...(overrides.repeat === undefined || overrides.repeat === 1 ? {} : { repeat: overrides.repeat }),
  };
}

export function buildConfiguredEnsemble(config: ConfigFile, base: readonly JudgeDefinition[], definition: EnsembleDefinition) {
  const members = definition.members.map((reference) => resolveJudge(config, base, reference));
  if (members.some((member) => member === undefined)) return undefined;
  return buildEnsemble(definition, members as JudgeDefinition[]);
}

/**
 * The judges a checked config asks for, in the order listed (or the catalog
 * order, then custom judges, decision trees and ensembles, when `judges` is
 * absent), each with its settings; the members of an ensemble that the list
 * leaves out are added after it, since the ensemble needs their judgments.
 */
export function selectJudges(config: ConfigFile): readonly JudgeDefinition[] {
  const base = baseJudges(config);
  const ensembles: EnsembleJudge[] = (config.ensembles ?? []).map((definition) => {
    const build = buildConfiguredEnsemble(config, base, definition);
    if (build === undefined || !build.ok) throw new Error(`Config was not checked before selecting judges: ensemble ${definition.id}`);
    return build.value;
  });
  const resolve = (reference: string): JudgeDefinition => {
    const judge = ensembles.find((ensemble) => ensemble.id === reference) ?? resolveJudge(config, base, reference);
    if (judge === undefined) throw new Error(`Config was not checked before selecting judges: unknown judge ${reference}`);
    return judge;
  };
  const listed = config.judges === undefined ? [...base.map((judge) => resolve(judge.id)), ...ensembles] : config.judges.map(resolve);
  const ids = new Set(listed.map((judge) => judge.id));
  for (const judge of [...listed]) {
    if (judge.kind !== 'ensemble') continue;
    for (const member of judge.members) {
      if (!ids.has(member)) listed.push(resolve(member));
      ids.add(member);
    }
  }
  return listed;
}
