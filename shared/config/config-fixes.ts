import { BATCH_FIXES, bedrockBatchSchema } from '../judge-client/batch-settings.js';
import { ENGINE_CONFIG_FIXES, ENGINE_CONFIG_KEYS } from '../engines/engine-config-help.js';
import { customJudgeExampleSchema } from '../judges/custom-judge-examples.js';
import { customJudgeSchema } from '../judges/custom-judge.js';
import { dagJudgeSchema } from '../judges/dag/dag-config.js';
import { ensembleSchema } from '../judges/ensemble/ensemble-judge.js';
import { judgeClientSchema } from '../judge-client/judge-client-schema.js';
import { judgeOverridesShape, OVERRIDE_FIXES } from '../judge-client/judge-overrides.js';
import { PROVIDER_FIXES, PROVIDER_KEYS } from '../judge-client/judge-provider-config.js';
import { judgeRateLimitSchema, modelRateLimitSchema } from '../judge-rate/rate-limit-config.js';
import { modelPriceSchema } from '../schema/judge-prices.js';
import { MAX_CONCURRENCY } from '../schema/work-limits.js';
import { configFileSchema, MAX_DEADLINE_SECONDS, runSettingsSchema } from './config-schema.js';
import { CANARY_FIXES, CANARY_KEYS } from './canary-settings.js';

const WEIGHTS_FIX = 'give three non-negative numbers with a sum above 0, e.g. {correctness: 0.6, comprehensiveness: 0.2, readability: 0.2}';

/** How to fix each field, by its path with list indices written `[]`. */
export const FIXES: Readonly<Record<string, string>> = {
  '': 'write an object (mapping) with some of the keys judge, run, judges, rubric_weights, custom_judges, dag_judges, judge_settings, ensembles, engines, thresholds, canaries',
  thresholds:
    'give pass conditions by case metric name, e.g. {response/llm_judged/correctness/rating: yes, retrieval/llm_judged/chunk_relevance/precision: 0.7, engine/latency_ms: {max: 500}}',
  judge:
    'write an object with some of the keys provider, azure, bedrock, base_url, model, temperature, timeout_ms, max_retries, concurrency, max_tokens, max_retry_wait_ms, call_deadline_ms, cache_sampled, prices, rate_limit, batch',
  ...PROVIDER_FIXES,
  ...BATCH_FIXES,
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
  'judge.prices':
    'give the currency and the price per million tokens of each judge model, e.g. {currency: USD, models: {gpt-4o-mini: {input_per_million: 0.15, output_per_million: 0.6}}}',
  'judge.prices.currency': 'give a three-letter currency code, e.g. USD',
  'judge.prices.models': 'give prices by model name, e.g. {gpt-4o-mini: {input_per_million: 0.15, output_per_million: 0.6}}',
  'judge.prices.models.*': "give the model's prices as {input_per_million: <number from 0 up>, output_per_million: <number from 0 up>}",
  'judge.prices.models.*.input_per_million': 'give the price of a million input (prompt) tokens, a number from 0 up, e.g. 0.15',
  'judge.prices.models.*.output_per_million': 'give the price of a million output (completion) tokens, a number from 0 up, e.g. 0.6',
  'judge.prices.models.*.batch_input_per_million':
    "give the price of a million input tokens in the provider's batch jobs, a number from 0 up (absent: half of input_per_million)",
  'judge.prices.models.*.batch_output_per_million':
    "give the price of a million output tokens in the provider's batch jobs, a number from 0 up (absent: half of output_per_million)",
  'judge.rate_limit':
    "give the judge account's limits per minute, e.g. {requests_per_minute: 500, tokens_per_minute: 200000, models: {gpt-4o: {requests_per_minute: 100}}}",
  'judge.rate_limit.requests_per_minute': 'give the requests a minute the judge account allows for each model, a number above 0, e.g. 500',
  'judge.rate_limit.tokens_per_minute': 'give the tokens a minute the judge account allows for each model, a number above 0, e.g. 200000',
  'judge.rate_limit.models': 'give limits by model name, e.g. {gpt-4o: {requests_per_minute: 100, tokens_per_minute: 30000}}',
  'judge.rate_limit.models.*': "give the model's limits as {requests_per_minute: <number above 0>, tokens_per_minute: <number above 0>}",
  'judge.rate_limit.models.*.requests_per_minute':
    'give the requests a minute the judge account allows for this model, a number above 0, e.g. 100',
  'judge.rate_limit.models.*.tokens_per_minute':
    'give the tokens a minute the judge account allows for this model, a number above 0, e.g. 30000',
  judges: 'give a list of judge ids, e.g. [correctness, groundedness, graded_relevance@gpt-4o]; `assay judges` lists them',
  'judges[]': 'give a list of judge ids, e.g. [correctness, groundedness, graded_relevance@gpt-4o]; `assay judges` lists them',
  judge_settings: 'give settings by judge id, e.g. {graded_relevance: {model: gpt-4o, temperature: 0.3}}',
  'judge_settings.*': `write an object with some of the keys ${Object.keys(judgeOverridesShape).join(', ')}`,
  ...overrideFixes('judge_settings.*'),
  ...overrideFixes('custom_judges[]'),
  ...overrideFixes('dag_judges[]'),
  'custom_judges[].examples':
    'give a list of examples, each with the inputs the template uses, a rating and a rationale; one per grade of the scale works best',
  'custom_judges[].examples[]':
    'give each example as an object with the inputs the template uses (request, response, chunk, ...), rating and rationale',
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
  run: 'write an object with some of the keys cutoffs, deadline_seconds, check_delay_seconds, judge_depth, list_depth, engine_concurrency, max_judge_cost, min_agreement, corrected_estimates, p_value_adjustment',
  'run.max_judge_cost': 'give the most the judges may spend, a number above 0 in the currency of judge.prices, e.g. 5',
  'run.cutoffs': 'give a list of whole numbers from 1 up, e.g. [5, 10]',
  'run.cutoffs[]': 'give a list of whole numbers from 1 up, e.g. [5, 10]',
  'run.deadline_seconds': `give the seconds (not milliseconds) after which missing cases are reported, from 1 to ${MAX_DEADLINE_SECONDS} (30 days), e.g. 3600`,
  'run.check_delay_seconds': 'give the seconds before the first completion check (later checks back off to a minute), 0 to 900',
  'run.judge_depth': 'give how many top hits of each engine to judge, a whole number from 1 up, e.g. 10',
  'run.list_depth': 'give how many top documents of each engine cases.jsonl lists, a whole number from 1 up, e.g. 100',
  'run.engine_concurrency': `give how many live engine calls a worker makes at once, a whole number from 1 to ${MAX_CONCURRENCY}, e.g. 8`,
  'run.min_agreement': "give the least Cohen's kappa a relevance judge must reach with the human labels, a number from -1 to 1, e.g. 0.6",
  'custom_judges[]': 'give each custom judge as an object with id, assessment, template and scale',
  'custom_judges[].id': 'use lower-case letters, digits and underscores, starting with a letter, e.g. tone_check',
  'custom_judges[].assessment': 'use ANSWER (judges each response) or RETRIEVAL (judges each retrieved chunk)',
  'custom_judges[].template':
    'write the prompt with {request}, {response}, {context}, {expected_response} placeholders (RETRIEVAL: {request}, {chunk}, {expected_response}), and {{ and }} for literal braces',
  'custom_judges[].scale': 'use one of yes_no, grade_0_3, likert_1_5, score_0_1',
  'custom_judges[].description': 'give a one-sentence text, or drop the key',
  'custom_judges[].version': 'give a version text such as "2", or drop the key',
  dag_judges: 'give a list of decision-tree judges, each with id, assessment, root and nodes',
  'dag_judges[]': 'give each decision-tree judge as an object with id, assessment, root and nodes',
  'dag_judges[].id': 'use lower-case letters, digits and underscores, starting with a letter, e.g. summary_structure',
  'dag_judges[].assessment': 'use ANSWER (walks each response) or RETRIEVAL (walks each retrieved context)',
  'dag_judges[].root': 'name the node the walk starts at',
  'dag_judges[].nodes':
    'give the nodes by name: {task, label, inputs, next}, {binary, inputs, yes, no}, {non_binary, inputs, options} or {verdict: score}',
  'dag_judges[].max_score': 'give the score that means best, a number above 0, or drop the key',
  'dag_judges[].description': 'give a one-sentence text, or drop the key',
  'dag_judges[].version': 'give a version text such as "2", or drop the key',
  'run.corrected_estimates':
    'write an object with level (a confidence level between 0 and 1, default 0.95) and min_labelled (a whole number from 3, default 8)',
  'run.corrected_estimates.level': 'give a confidence level between 0 and 1, e.g. 0.95',
  'run.corrected_estimates.min_labelled': 'give the fewest labelled cases an interval is given for, a whole number from 3, e.g. 8',
  'run.p_value_adjustment':
    'write an object with baseline (default holm) and leaderboard (default benjamini-hochberg), each holm, benjamini-hochberg or none',
  'run.p_value_adjustment.baseline':
    'give how the p-values against the baseline are adjusted across engines × metrics: holm, benjamini-hochberg or none',
  'run.p_value_adjustment.leaderboard':
    "give how the p-values of a leaderboard's pairs of engines are adjusted: benjamini-hochberg, holm or none",
  ...ENGINE_CONFIG_FIXES,
  ...CANARY_FIXES,
};

/** The keys each object accepts, by its path, to name them when an unknown key turns up. */
export const KNOWN_KEYS: Readonly<Record<string, readonly string[]>> = {
  '': Object.keys(configFileSchema.shape),
  judge: Object.keys(judgeClientSchema.shape),
  run: Object.keys(runSettingsSchema.shape),
  'judge.prices': ['currency', 'models'],
  ...PROVIDER_KEYS,
  'judge.prices.models.*': Object.keys(modelPriceSchema.shape),
  'judge.rate_limit': Object.keys(judgeRateLimitSchema.shape),
  'judge.rate_limit.models.*': Object.keys(modelRateLimitSchema.shape),
  'run.corrected_estimates': ['level', 'min_labelled'],
  'run.p_value_adjustment': ['baseline', 'leaderboard'],
  'judge.batch': ['enabled', 'failed_lines', 'unanswered_lines', 'below_minimum', 'max_requests_per_job', 'poll_seconds', 'bedrock'],
  'judge.batch.bedrock': Object.keys(bedrockBatchSchema.shape),
  rubric_weights: ['correctness', 'comprehensiveness', 'readability'],
  'custom_judges[]': Object.keys(customJudgeSchema.shape),
  'dag_judges[]': Object.keys(dagJudgeSchema.shape),
  'judge_settings.*': Object.keys(judgeOverridesShape),
  'custom_judges[].examples[]': Object.keys(customJudgeExampleSchema.shape),
  'ensembles[]': Object.keys(ensembleSchema.shape),
  ...ENGINE_CONFIG_KEYS,
  ...CANARY_KEYS,
};

function overrideFixes(parent: string): Record<string, string> {
  return Object.fromEntries(Object.entries(OVERRIDE_FIXES).map(([key, fix]) => [`${parent}.${key}`, fix]));
}
