import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { z } from 'zod';
import { ENGINE_CONFIG_FIXES, ENGINE_CONFIG_KEYS } from '../engines/engine-config-help.js';
import { engineListSchema } from '../engines/engine-config.js';
import { JUDGE_CATALOG, rubricWeightsSchema } from './catalog/index.js';
import { judgeBaseUrlSchema } from './judge-base-url.js';
import { buildCustomJudge, customJudgeSchema } from './custom-judge.js';
import { thresholdsSchema } from '../schema/thresholds.js';
import { dagJudgeSchema } from './dag/dag-config.js';
import { buildDagJudge } from './dag/dag-judge.js';
import { report } from './config-report.js';
import { parseConfigText } from './config-text.js';
import { findReservedKey, RESERVED_KEY } from '../dataset/own-keys.js';
import { customJudgeExampleSchema } from './custom-judge-examples.js';
import { ensembleSchema } from './ensemble/ensemble-judge.js';
import { judgeOverridesSchema, judgeOverridesShape, OVERRIDE_FIXES } from './judge-overrides.js';
import { checkJudgeCeiling } from './judge-price-checks.js';
import { checkJudgeProvider, PROVIDER_FIXES, PROVIDER_KEYS, providerFields } from './judge-provider-config.js';
import { checkJudgeReferences } from './judge-reference-checks.js';
import { judgePricesSchema, modelPriceSchema } from '../schema/judge-prices.js';
import { MAX_CONCURRENCY } from '../schema/work-limits.js';
import { judgeRateLimitSchema, modelRateLimitSchema } from './rate/rate-limit-config.js';

export { selectJudges } from './judge-selection.js';

/**
 * The judge part of the config file. Objects are strict so that a misspelt
 * key (`temprature`) is an error instead of a silently ignored setting. There
 * is no API key field on purpose: keys come from the environment only, so a
 * config file can be committed, copied into a report or hashed without leaking one.
 */
export const judgeClientSchema = z.strictObject({
  /** Where the judges run: openai (default), azure or bedrock, with that provider's block (judge-provider-config.ts). */
  ...providerFields,
  base_url: judgeBaseUrlSchema.optional(),
  model: z.string().min(1).optional(),
  temperature: z.number().min(0).max(2).default(0),
  timeout_ms: z.number().int().positive().optional(),
  max_retries: z.number().int().min(0).optional(),
  concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).optional(),
  /** The longest answer asked of the judge model; a verdict with its rationale needs a few hundred. */
  max_tokens: z.number().int().min(16).optional(),
  /** The longest wait honoured from a server's Retry-After. */
  max_retry_wait_ms: z.number().int().min(0).optional(),
  /** The longest one judgment may take, over all its attempts and its repair request. */
  call_deadline_ms: z.number().int().positive().optional(),
  /** Cache answers sampled at a temperature above 0 too (each sample number apart); off by default, so a sampled verdict is drawn anew. */
  cache_sampled: z.boolean().optional(),
  /** Prices per model, for the report's cost estimate and run.max_judge_cost (shared/schema/judge-prices.ts). */
  prices: judgePricesSchema.optional(),
  /** The judge account's requests and tokens per minute, per model (rate/rate-limit-config.ts). */
  rate_limit: judgeRateLimitSchema.optional(),
});

/** How a run is carried out: cutoffs of the ground-truth metrics, and how long the reducer waits. */
export const runSettingsSchema = z.strictObject({
  cutoffs: z.array(z.number().int().positive()).min(1).default([5, 10]),
  deadline_seconds: z.number().int().positive().default(3600),
  check_delay_seconds: z.number().int().min(0).max(900).default(1),
  /** How many top hits of each live engine are judged. */
  judge_depth: z.number().int().min(1).default(10),
  /**
   * How many top documents of each engine's ranked list a case result and
   * cases.jsonl keep (at least judge_depth); the ground-truth metrics use the
   * whole list. A sweep's runs list 1,000 documents a topic, which the run
   * files hold already: kept whole, they would be most of cases.jsonl.
   */
  list_depth: z.number().int().min(1).default(100),
  /** Live engine calls in flight at once in one worker, over all its cases and engines. */
  engine_concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).default(8),
  /** The most the run's judges may spend, in judge.prices' currency; past it, the cases left are evaluated without their LLM judges. */
  max_judge_cost: z.number().positive().optional(),
  /**
   * The least Cohen's kappa (over the grades) a relevance judge must reach
   * with the human labels; below it the report and `assay run` warn.
   */
  min_agreement: z.number().min(-1).max(1).optional(),
});

export const judgeConfigSchema = z.strictObject({
  judge: judgeClientSchema.prefault({}),
  run: runSettingsSchema.prefault({}),
  /** Ids of the judges to run; absent means every built-in and custom judge. */
  judges: z.array(z.string().min(1)).optional(),
  rubric_weights: rubricWeightsSchema.optional(),
  custom_judges: z.array(customJudgeSchema).optional(),
  /** Pass conditions per case metric, for the report's pass rates and `assay run --fail-under`. */
  thresholds: thresholdsSchema.optional(),
  /** Decision-tree judges (after DeepEval's DAG metric): shared/judges/dag/. */
  dag_judges: z.array(dagJudgeSchema).optional(),
  /** Settings of single judges by id or variant id (`graded_relevance@gpt-4o`): model, base_url, temperature, max_tokens, repeat. */
  judge_settings: z.record(z.string().min(1), judgeOverridesSchema).optional(),
  /** Judges whose verdicts are combined per item (ensemble/ensemble-judge.ts). */
  ensembles: z.array(ensembleSchema).optional(),
  /** The live systems under test (shared/engines/). */
  engines: engineListSchema.optional(),
});
export type JudgeConfig = z.infer<typeof judgeConfigSchema>;

export type JudgeConfigLoad = { ok: true; config: JudgeConfig } | { ok: false; error: string };

const WEIGHTS_FIX = 'give three non-negative numbers with a sum above 0, e.g. {correctness: 0.6, comprehensiveness: 0.2, readability: 0.2}';

/** How to fix each field, by its path with list indices written `[]`. */
const FIXES: Readonly<Record<string, string>> = {
  '': 'write an object (mapping) with some of the keys judge, run, judges, rubric_weights, custom_judges, dag_judges, judge_settings, ensembles, engines, thresholds',
  thresholds: 'give pass conditions by case metric name, e.g. {response/llm_judged/correctness/rating: yes, retrieval/llm_judged/chunk_relevance/precision: 0.7, engine/latency_ms: {max: 500}}',
  judge: 'write an object with some of the keys provider, azure, bedrock, base_url, model, temperature, timeout_ms, max_retries, concurrency, max_tokens, max_retry_wait_ms, call_deadline_ms, cache_sampled, prices, rate_limit',
  ...PROVIDER_FIXES,
  'judge.base_url': 'give the OpenAI-compatible endpoint, e.g. https://api.openai.com/v1 or http://localhost:11434/v1',
  'judge.model': 'give the model name, e.g. gpt-4o-mini',
  'judge.temperature': 'give a number from 0 to 2; 0 keeps verdicts repeatable',
  'judge.timeout_ms': 'give a whole number of milliseconds above 0, e.g. 60000',
  'judge.max_retries': 'give a whole number from 0 up',
  'judge.concurrency': `give how many judge calls may be in flight at once, a whole number from 1 to ${MAX_CONCURRENCY}, e.g. 8`,
  'judge.max_tokens': 'give a whole number of tokens from 16 up, e.g. 1024',
  'judge.max_retry_wait_ms': 'give a whole number of milliseconds from 0 up, e.g. 30000',
  'judge.call_deadline_ms': 'give a whole number of milliseconds above 0, e.g. 120000',
  'judge.cache_sampled': 'give true or false',
  'judge.prices': 'give the currency and the price per million tokens of each judge model, e.g. {currency: USD, models: {gpt-4o-mini: {input_per_million: 0.15, output_per_million: 0.6}}}',
  'judge.prices.currency': 'give a three-letter currency code, e.g. USD',
  'judge.prices.models': 'give prices by model name, e.g. {gpt-4o-mini: {input_per_million: 0.15, output_per_million: 0.6}}',
  'judge.prices.models.*': 'give the model\'s prices as {input_per_million: <number from 0 up>, output_per_million: <number from 0 up>}',
  'judge.prices.models.*.input_per_million': 'give the price of a million input (prompt) tokens, a number from 0 up, e.g. 0.15',
  'judge.prices.models.*.output_per_million': 'give the price of a million output (completion) tokens, a number from 0 up, e.g. 0.6',
  'judge.rate_limit': 'give the judge account\'s limits per minute, e.g. {requests_per_minute: 500, tokens_per_minute: 200000, models: {gpt-4o: {requests_per_minute: 100}}}',
  'judge.rate_limit.requests_per_minute': 'give the requests a minute the judge account allows for each model, a number above 0, e.g. 500',
  'judge.rate_limit.tokens_per_minute': 'give the tokens a minute the judge account allows for each model, a number above 0, e.g. 200000',
  'judge.rate_limit.models': 'give limits by model name, e.g. {gpt-4o: {requests_per_minute: 100, tokens_per_minute: 30000}}',
  'judge.rate_limit.models.*': 'give the model\'s limits as {requests_per_minute: <number above 0>, tokens_per_minute: <number above 0>}',
  'judge.rate_limit.models.*.requests_per_minute': 'give the requests a minute the judge account allows for this model, a number above 0, e.g. 100',
  'judge.rate_limit.models.*.tokens_per_minute': 'give the tokens a minute the judge account allows for this model, a number above 0, e.g. 30000',
  judges: 'give a list of judge ids, e.g. [correctness, groundedness, graded_relevance@gpt-4o]; `assay judges` lists them',
  'judges[]': 'give a list of judge ids, e.g. [correctness, groundedness, graded_relevance@gpt-4o]; `assay judges` lists them',
  judge_settings: 'give settings by judge id, e.g. {graded_relevance: {model: gpt-4o, temperature: 0.3}}',
  'judge_settings.*': `write an object with some of the keys ${Object.keys(judgeOverridesShape).join(', ')}`,
  ...overrideFixes('judge_settings.*'),
  ...overrideFixes('custom_judges[]'),
  ...overrideFixes('dag_judges[]'),
  'custom_judges[].examples': 'give a list of examples, each with the inputs the template uses, a rating and a rationale; one per grade of the scale works best',
  'custom_judges[].examples[]': 'give each example as an object with the inputs the template uses (request, response, chunk, ...), rating and rationale',
  'custom_judges[].examples[].rating': 'give a rating of the judge\'s scale, e.g. "yes" or 2',
  'custom_judges[].examples[].rationale': 'give the reasoning the judge should write for this rating',
  ensembles: 'give a list of ensembles, each with id, members and combine',
  'ensembles[]': 'give each ensemble as an object with id, members (judge ids) and combine (majority, mean or median)',
  'ensembles[].id': 'use lower-case letters, digits and underscores, starting with a letter, e.g. relevance_panel',
  'ensembles[].members': 'give two or more judge ids of the same kind and scale, e.g. [graded_relevance, graded_relevance@gpt-4o]',
  'ensembles[].members[]': 'give two or more judge ids of the same kind and scale, e.g. [graded_relevance, graded_relevance@gpt-4o]',
  'ensembles[].combine': 'use majority for yes/no judges, mean or median for graded and scored ones',
  'ensembles[].description': 'give a one-sentence text, or drop the key',
  rubric_weights: WEIGHTS_FIX,
  'rubric_weights.correctness': WEIGHTS_FIX,
  'rubric_weights.comprehensiveness': WEIGHTS_FIX,
  'rubric_weights.readability': WEIGHTS_FIX,
  custom_judges: 'give a list of judges, each with id, assessment, template and scale',
  run: 'write an object with some of the keys cutoffs, deadline_seconds, check_delay_seconds, judge_depth, list_depth, engine_concurrency, max_judge_cost, min_agreement',
  'run.max_judge_cost': 'give the most the judges may spend, a number above 0 in the currency of judge.prices, e.g. 5',
  'run.cutoffs': 'give a list of whole numbers from 1 up, e.g. [5, 10]',
  'run.cutoffs[]': 'give a list of whole numbers from 1 up, e.g. [5, 10]',
  'run.deadline_seconds': 'give the seconds after which missing cases are reported, e.g. 3600',
  'run.check_delay_seconds': 'give the seconds before the first completion check (later checks back off to a minute), 0 to 900',
  'run.judge_depth': 'give how many top hits of each engine to judge, a whole number from 1 up, e.g. 10',
  'run.list_depth': 'give how many top documents of each engine cases.jsonl lists, a whole number from 1 up, e.g. 100',
  'run.engine_concurrency': `give how many live engine calls a worker makes at once, a whole number from 1 to ${MAX_CONCURRENCY}, e.g. 8`,
  'run.min_agreement': "give the least Cohen's kappa a relevance judge must reach with the human labels, a number from -1 to 1, e.g. 0.6",
  'custom_judges[]': 'give each custom judge as an object with id, assessment, template and scale',
  'custom_judges[].id': 'use lower-case letters, digits and underscores, starting with a letter, e.g. tone_check',
  'custom_judges[].assessment': 'use ANSWER (judges each response) or RETRIEVAL (judges each retrieved chunk)',
  'custom_judges[].template': 'write the prompt with {request}, {response}, {context}, {expected_response} placeholders (RETRIEVAL: {request}, {chunk}, {expected_response}), and {{ and }} for literal braces',
  'custom_judges[].scale': 'use one of yes_no, grade_0_3, likert_1_5, score_0_1',
  'custom_judges[].description': 'give a one-sentence text, or drop the key',
  'custom_judges[].version': 'give a version text such as "2", or drop the key',
  dag_judges: 'give a list of decision-tree judges, each with id, assessment, root and nodes',
  'dag_judges[]': 'give each decision-tree judge as an object with id, assessment, root and nodes',
  'dag_judges[].id': 'use lower-case letters, digits and underscores, starting with a letter, e.g. summary_structure',
  'dag_judges[].assessment': 'use ANSWER (walks each response) or RETRIEVAL (walks each retrieved context)',
  'dag_judges[].root': 'name the node the walk starts at',
  'dag_judges[].nodes': 'give the nodes by name: {task, label, inputs, next}, {binary, inputs, yes, no}, {non_binary, inputs, options} or {verdict: score}',
  'dag_judges[].max_score': 'give the score that means best, a number above 0, or drop the key',
  'dag_judges[].description': 'give a one-sentence text, or drop the key',
  'dag_judges[].version': 'give a version text such as "2", or drop the key',
  ...ENGINE_CONFIG_FIXES,
};

/** The keys each object accepts, by its path, to name them when an unknown key turns up. */
const KNOWN_KEYS: Readonly<Record<string, readonly string[]>> = {
  '': Object.keys(judgeConfigSchema.shape),
  judge: Object.keys(judgeClientSchema.shape),
  run: Object.keys(runSettingsSchema.shape),
  'judge.prices': ['currency', 'models'],
  ...PROVIDER_KEYS,
  'judge.prices.models.*': Object.keys(modelPriceSchema.shape),
  'judge.rate_limit': Object.keys(judgeRateLimitSchema.shape),
  'judge.rate_limit.models.*': Object.keys(modelRateLimitSchema.shape),
  rubric_weights: ['correctness', 'comprehensiveness', 'readability'],
  'custom_judges[]': Object.keys(customJudgeSchema.shape),
  'dag_judges[]': Object.keys(dagJudgeSchema.shape),
  'judge_settings.*': Object.keys(judgeOverridesShape),
  'custom_judges[].examples[]': Object.keys(customJudgeExampleSchema.shape),
  'ensembles[]': Object.keys(ensembleSchema.shape),
  ...ENGINE_CONFIG_KEYS,
};

/** Reads a YAML (.yaml, .yml) or JSON (.json) config file and checks its judge settings. */
export async function loadJudgeConfig(path: string): Promise<JudgeConfigLoad> {
  const extension = extname(path).toLowerCase();
  if (!['.yaml', '.yml', '.json'].includes(extension)) {
    return { ok: false, error: `${path}: cannot tell the format of the config file (fix: name it .yaml, .yml or .json)` };
  }
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `${path}: cannot read the config file: ${reason} (fix: check the path and its permissions)` };
  }
  const parsed = parseConfigText(text, path, extension === '.json' ? 'json' : 'yaml');
  return parsed.ok ? checkJudgeConfig(parsed.value, path) : parsed;
}

/** Checks judge settings already read from `file`: the schema, then custom judges and the judge list. */
export function checkJudgeConfig(input: unknown, file: string): JudgeConfigLoad {
  // Records (thresholds, judge_settings, judge.prices.models, ...) would drop the key silently: a setting the user wrote would vanish.
  const reserved = findReservedKey(input);
  if (reserved !== undefined) {
    return { ok: false, error: report(file, `"${reserved}"`, `the key "${RESERVED_KEY}" cannot be used`, 'remove it or rename it: no judge, model, metric or setting has that name') };
  }
  const parsed = judgeConfigSchema.safeParse(input);
  if (!parsed.success) {
    const messages = parsed.error.issues.flatMap((issue) => describeIssue(issue, input, file));
    return { ok: false, error: messages.join('\n') };
  }
  const config = parsed.data;
  const problems: string[] = [];
  const customIds = new Set<string>();
  (config.custom_judges ?? []).forEach((definition, index) => {
    const field = `custom_judges[${index}]`;
    if (customIds.has(definition.id)) {
      problems.push(report(file, `"${field}.id" (judge "${definition.id}")`, 'is defined twice', 'give each custom judge its own id'));
    }
    customIds.add(definition.id);
    const build = buildCustomJudge(definition);
    if (!build.ok) problems.push(report(file, `"${field}.${build.field}" (judge "${definition.id}")`, build.problem, build.fix));
  });
  (config.dag_judges ?? []).forEach((definition, index) => {
    const field = `dag_judges[${index}]`;
    if (customIds.has(definition.id) || JUDGE_CATALOG.some((judge) => judge.id === definition.id)) {
      problems.push(report(file, `"${field}.id" (judge "${definition.id}")`, 'is already the id of another judge', 'give each judge its own id; `assay judges` lists the built-in ones'));
    }
    customIds.add(definition.id);
    const build = buildDagJudge(definition);
    if (!build.ok) problems.push(report(file, `"${field}.${build.field}" (judge "${definition.id}")`, build.problem, build.fix));
  });
  // Judge names and settings are checked once every judge they can name is valid.
  if (problems.length === 0) problems.push(...checkJudgeReferences(config, file));
  if (problems.length === 0) problems.push(...checkJudgeProvider(config, file));
  if (problems.length === 0) problems.push(...checkJudgeCeiling(config, file));
  return problems.length > 0 ? { ok: false, error: problems.join('\n') } : { ok: true, config };
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown, file: string): string[] {
  const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
  const which = judgeNamed(input, path);
  if (issue.code === 'unrecognized_keys') {
    const accepted = KNOWN_KEYS[pattern(path)] ?? [];
    return issue.keys.map((key) => {
      const secretFix =
        path[0] === 'engines' ? 'remove it: engine credentials come from the environment ({{env.NAME}} in headers, connection_env, the AWS credential chain), never from a file'
        : path[1] === 'azure' ? 'remove it: the Azure OpenAI key is read only from the AZURE_OPENAI_API_KEY environment variable, never from a file'
        : path[1] === 'bedrock' ? 'remove it: Bedrock judges sign with the AWS credential chain (environment, profile, role), never with a key from a file'
        : 'remove it: the API key is read only from the OPENAI_API_KEY environment variable, never from a file';
      const fix = /api.?key|secret|token|password/i.test(key) ? secretFix : `remove it or correct its spelling; the keys here are ${accepted.join(', ')}`;
      return report(file, formatPath([...path, key]) + which, 'unknown key', fix);
    });
  }
  const found = valueAt(input, path);
  // Checks that span several fields (engines) carry their own fix.
  const ownFix = issue.code === 'custom' && typeof issue.params?.['fix'] === 'string' ? issue.params['fix'] : undefined;
  return [report(file, formatPath(path) + which, problemOf(issue, found), ownFix ?? fixFor(pattern(path)))];
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a text',
  number: 'a number',
  int: 'a whole number',
  object: 'an object (mapping)',
  array: 'a list',
};

function problemOf(issue: z.core.$ZodIssue, found: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return found === undefined ? 'is missing' : `expected ${TYPE_NAMES[issue.expected] ?? issue.expected}, got ${describeValue(found)}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map(String).join(', ')}, got ${describeValue(found)}`;
    case 'too_small':
      if (issue.origin === 'array' && Number(issue.minimum) > 1) return `expected at least ${String(issue.minimum)} entries, got ${Array.isArray(found) ? found.length : 0}`;
      return issue.origin === 'string' || issue.origin === 'array'
        ? 'must not be empty'
        : `expected a number ${issue.inclusive ? '>=' : '>'} ${String(issue.minimum)}, got ${describeValue(found)}`;
    case 'too_big':
      return `expected a number ${issue.inclusive ? '<=' : '<'} ${String(issue.maximum)}, got ${describeValue(found)}`;
    case 'invalid_format':
      return issue.format === 'url' ? `expected an http or https URL, got ${describeValue(found)}` : `${issue.message}, got ${describeValue(found)}`;
    default:
      return issue.message;
  }
}

/** ` (judge "tone")` or ` (engine "bm25")` when the path lies inside a named custom judge or engine, so the user finds it without counting. */
function judgeNamed(input: unknown, path: readonly (string | number)[]): string {
  if (path[0] === 'engines' && typeof path[1] === 'number') {
    const name = (valueAt(input, path.slice(0, 2)) as { name?: unknown } | undefined)?.name;
    return typeof name === 'string' ? ` (engine "${name}")` : '';
  }
  if (path[0] !== 'custom_judges' || typeof path[1] !== 'number') return '';
  const id = (valueAt(input, path.slice(0, 2)) as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? ` (judge "${id}")` : '';
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function formatPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '';
  return `"${plainPath(path)}"`;
}

/** The fix of the field, or of its nearest parent that has one (a header, a matrix variable); never the whole file's. */
function fixFor(fieldPattern: string): string {
  const own = FIXES[fieldPattern];
  if (own !== undefined) return own;
  for (let parent = parentOf(fieldPattern); parent !== ''; parent = parentOf(parent)) {
    const fix = FIXES[parent];
    if (fix !== undefined) return fix;
  }
  return 'correct the value';
}

function parentOf(fieldPattern: string): string {
  return fieldPattern.replace(/(\.[^.[\]]*|\[\])$/, '');
}

function pattern(path: readonly (string | number)[]): string {
  // judge_settings is keyed by judge id, and judge.prices.models and judge.rate_limit.models by model: every key shares one pattern.
  const byModel = path[0] === 'judge' && (path[1] === 'prices' || path[1] === 'rate_limit') && path[2] === 'models' && path.length > 3;
  const general =
    path[0] === 'judge_settings' && path.length > 1 ? ['judge_settings', '*', ...path.slice(2)] : byModel ? ['judge', path[1] as string, 'models', '*', ...path.slice(4)] : path;
  return plainPath(general).replace(/\[\d+\]/g, '[]');
}

function overrideFixes(parent: string): Record<string, string> {
  return Object.fromEntries(Object.entries(OVERRIDE_FIXES).map(([key, fix]) => [`${parent}.${key}`, fix]));
}

function plainPath(path: readonly (string | number)[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text === '' ? key : `${text}.${key}`), '');
}

function valueAt(input: unknown, path: readonly (string | number)[]): unknown {
  let value: unknown = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}
