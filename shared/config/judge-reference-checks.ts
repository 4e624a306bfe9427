import { inputErrorLine } from '../schema/input-error-line.js';
import type { ConfigFile } from './config-schema.js';
import type { JudgeDefinition } from '../judges/judge-definition.js';
import { baseJudges, buildConfiguredEnsemble, overridesOf, parseJudgeReference, VARIANT_MODEL } from './judge-selection.js';

/**
 * Checks every place a config names judges (the `judges` list, ensemble
 * members, `judge_settings` keys) and the settings they come to: a known
 * judge, a model variant with a usable model name, ensembles whose members
 * fit together, and `repeat` only where sampling can differ (temperature
 * above 0). Call it once the custom and decision-tree judges are valid.
 */
export function checkJudgeReferences(config: ConfigFile, file: string): string[] {
  const problems: string[] = [];
  const base = baseJudges(config);
  const ensembleIds = new Set<string>();
  const knownIds = base.map((judge) => judge.id);
  const referenceProblem = (reference: string): { problem: string; fix: string } | undefined => {
    const { baseId, model } = parseJudgeReference(reference);
    const judge = base.find((candidate) => candidate.id === baseId);
    if (judge === undefined)
      return {
        problem: `unknown judge "${baseId}"`,
        fix: `use one of ${[...knownIds, ...ensembleIds].join(', ')}, or define it under custom_judges or ensembles`,
      };
    if (model === undefined) return undefined;
    if (!VARIANT_MODEL.test(model))
      return {
        problem: `the model "${model}" of the variant "${reference}" has characters a metric name cannot carry`,
        fix: 'use letters, digits and . _ : - after the @, or set the model with judge_settings',
      };
    if (judge.kind === 'deterministic')
      return { problem: `"${baseId}" asks no model, so it has no model variants`, fix: `list it as "${baseId}"` };
    return undefined;
  };

  (config.ensembles ?? []).forEach((definition, index) => {
    const field = `"ensembles[${index}]`;
    if (knownIds.includes(definition.id) || ensembleIds.has(definition.id)) {
      problems.push(
        inputErrorLine(
          file,
          `${field}.id" (ensemble "${definition.id}")`,
          'is already the id of another judge or ensemble',
          'give each ensemble its own id',
        ),
      );
    }
    ensembleIds.add(definition.id);
    const memberProblems = definition.members.flatMap((member, memberIndex) => {
      const found = referenceProblem(member);
      return found === undefined
        ? []
        : [inputErrorLine(file, `${field}.members[${memberIndex}]" (ensemble "${definition.id}")`, found.problem, found.fix)];
    });
    problems.push(...memberProblems);
    if (memberProblems.length > 0) return;
    const build = buildConfiguredEnsemble(config, base, definition);
    if (build !== undefined && !build.ok)
      problems.push(
        inputErrorLine(file, `${field}.${build.error.field}" (ensemble "${definition.id}")`, build.error.problem, build.error.fix),
      );
  });

  const listed = new Set<string>();
  (config.judges ?? []).forEach((reference, index) => {
    const found = ensembleIds.has(reference) ? undefined : referenceProblem(reference);
    if (found !== undefined) problems.push(inputErrorLine(file, `"judges[${index}]"`, found.problem, found.fix));
    else if (listed.has(reference))
      problems.push(inputErrorLine(file, `"judges[${index}]"`, `judge "${reference}" is listed twice`, 'list each judge once'));
    listed.add(reference);
  });

  for (const reference of Object.keys(config.judge_settings ?? {})) {
    const found = referenceProblem(reference);
    const judge = base.find((candidate) => candidate.id === parseJudgeReference(reference).baseId);
    if (found !== undefined) problems.push(inputErrorLine(file, `"judge_settings.${reference}"`, found.problem, found.fix));
    else if (judge?.kind === 'deterministic')
      problems.push(
        inputErrorLine(file, `"judge_settings.${reference}"`, `"${reference}" asks no model, so it has no settings`, 'remove it'),
      );
  }
  if (problems.length > 0) return problems;

  for (const reference of referencesInRun(config, base)) {
    const overrides = overridesOf(config, reference);
    const temperature = overrides.temperature ?? config.judge.temperature;
    if ((overrides.repeat ?? 1) > 1 && temperature === 0) {
      problems.push(
        inputErrorLine(
          file,
          `${repeatField(config, reference)} (judge "${reference}")`,
          `repeat ${overrides.repeat} at temperature 0 would draw the same answer ${overrides.repeat} times`,
          `give the judge a temperature above 0, e.g. judge_settings: {${reference}: {temperature: 0.7, repeat: ${overrides.repeat}}}, or drop repeat`,
        ),
      );
    }
  }
  return problems;
}

/** Every judge reference a run of this config can use: its judges, its variants and its ensembles' members. */
function referencesInRun(config: ConfigFile, base: readonly JudgeDefinition[]): string[] {
  const references = new Set<string>(base.filter((judge) => judge.kind !== 'deterministic').map((judge) => judge.id));
  for (const reference of config.judges ?? []) references.add(reference);
  for (const ensemble of config.ensembles ?? []) for (const member of ensemble.members) references.add(member);
  for (const ensemble of config.ensembles ?? []) references.delete(ensemble.id);
  return [...references];
}

/** Where the repeat of a judge was written: the most specific place that gives it. */
function repeatField(config: ConfigFile, reference: string): string {
  const { baseId } = parseJudgeReference(reference);
  for (const key of [reference, baseId]) if (config.judge_settings?.[key]?.repeat !== undefined) return `"judge_settings.${key}.repeat"`;
  const custom = (config.custom_judges ?? []).findIndex((definition) => definition.id === baseId);
  if (custom !== -1) return `"custom_judges[${custom}].repeat"`;
  return `"dag_judges[${(config.dag_judges ?? []).findIndex((definition) => definition.id === baseId)}].repeat"`;
}
