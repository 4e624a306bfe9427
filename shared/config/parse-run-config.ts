import { findReservedKey, RESERVED_KEY } from '../rows/own-keys.js';
import { JUDGE_CATALOG } from '../judges/catalog/index.js';
import { inputErrorLine } from '../schema/input-error-line.js';
import type { Result } from '../schema/result.js';
import { buildCustomJudge } from '../judges/custom-judge.js';
import { buildDagJudge } from '../judges/dag/dag-judge.js';
import { checkJudgeProvider } from '../judge-client/judge-provider-config.js';
import { checkBatchJudging } from '../judge-client/batch-settings.js';
import { describeConfigIssue } from './config-issues.js';
import { configFileSchema, runConfigSchema, type ConfigFile, type RunConfig } from './config-schema.js';
import { checkJudgeCeiling, type ModelEnvironment } from './judge-price-checks.js';
import { checkJudgeReferences } from './judge-reference-checks.js';

/** A run's stored config: the manifest of the run names it in every error. */
export interface StoredConfigOrigin {
  readonly runId: string;
  /** The manifest's key in the store. */
  readonly manifestKey: string;
}

/**
 * The only way to read a config, wherever it comes from: a config file's
 * value (`file` names it in every error; the CLI, a suite's config in the
 * bucket) or a run's stored config (a manifest's `config`, read by every
 * step). Both go through the schema (its defaults fill what is absent, so
 * a manifest written by an older assay parses), then the checks that span
 * fields: custom and decision-tree judges, the judge names, the provider and
 * the cost ceiling. A config that does not parse is an error that names the
 * file or the run, the field, what is wrong and how to fix it.
 *
 * `environment` (the CLI, where a run starts) adds ASSAY_JUDGE_MODEL's model
 * to the models the cost ceiling needs a price for.
 */
export function parseRunConfig(input: unknown, file: string, environment?: ModelEnvironment): Result<ConfigFile>;
export function parseRunConfig(input: unknown, stored: StoredConfigOrigin): Result<RunConfig>;
export function parseRunConfig(
  input: unknown,
  origin: string | StoredConfigOrigin,
  environment?: ModelEnvironment,
): Result<ConfigFile> | Result<RunConfig> {
  const where = typeof origin === 'string' ? origin : `${origin.manifestKey} (run ${origin.runId}), its config`;
  // Records (thresholds, judge_settings, judge.prices.models, ...) would drop the key silently: a setting the user wrote would vanish.
  const reserved = findReservedKey(input);
  if (reserved !== undefined) {
    return {
      ok: false,
      error: inputErrorLine(
        where,
        `"${reserved}"`,
        `the key "${RESERVED_KEY}" cannot be used`,
        'remove it or rename it: no judge, model, metric or setting has that name',
      ),
    };
  }
  const parsed = typeof origin === 'string' ? configFileSchema.safeParse(input) : runConfigSchema.safeParse(input);
  if (!parsed.success) {
    const messages = parsed.error.issues.flatMap((issue) => describeConfigIssue(issue, input, where));
    return { ok: false, error: messages.join('\n') };
  }
  const problems = checkAcrossFields(parsed.data, where, environment);
  return problems.length > 0 ? { ok: false, error: problems.join('\n') } : { ok: true, value: parsed.data };
}

/** The checks the schema cannot make: judges that must build, names that must resolve, a provider with its block, prices for the ceiling. */
function checkAcrossFields(config: ConfigFile, where: string, environment: ModelEnvironment | undefined): string[] {
  const problems: string[] = [];
  const customIds = new Set<string>();
  (config.custom_judges ?? []).forEach((definition, index) => {
    const field = `custom_judges[${index}]`;
    if (customIds.has(definition.id)) {
      problems.push(
        inputErrorLine(where, `"${field}.id" (judge "${definition.id}")`, 'is defined twice', 'give each custom judge its own id'),
      );
    }
    customIds.add(definition.id);
    const build = buildCustomJudge(definition);
    if (!build.ok) {
      const { field: at, problem, fix } = build.error;
      problems.push(inputErrorLine(where, `"${field}.${at}" (judge "${definition.id}")`, problem, fix));
    }
  });
  (config.dag_judges ?? []).forEach((definition, index) => {
    const field = `dag_judges[${index}]`;
    if (customIds.has(definition.id) || JUDGE_CATALOG.some((judge) => judge.id === definition.id)) {
      problems.push(
        inputErrorLine(
          where,
          `"${field}.id" (judge "${definition.id}")`,
          'is already the id of another judge',
          'give each judge its own id; `assay judges` lists the built-in ones',
        ),
      );
    }
    customIds.add(definition.id);
    const build = buildDagJudge(definition);
    if (!build.ok) {
      const { field: at, problem, fix } = build.error;
      problems.push(inputErrorLine(where, `"${field}.${at}" (judge "${definition.id}")`, problem, fix));
    }
  });
  // Judge names and settings are checked once every judge they can name is valid.
  if (problems.length === 0) problems.push(...checkJudgeReferences(config, where));
  if (problems.length === 0) problems.push(...checkJudgeProvider(config, where));
  if (problems.length === 0) problems.push(...checkBatchJudging(config, where));
  if (problems.length === 0) problems.push(...checkJudgeCeiling(config, where, environment));
  return problems;
}
