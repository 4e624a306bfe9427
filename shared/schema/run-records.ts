import { z } from 'zod';
import { compactRankingSchema } from './compact-ranking.js';
import { inputErrorSchema } from './input-error.js';

/**
 * What a run leaves in the store, under `runs/<run>/`:
 * - `manifest.json`: written once by ingest (a second writer loses), the
 *   reducer's reference for what "complete" means;
 * - `case-ids.json`: the ids of the run's cases, for the missing-case list;
 * - `input-errors.jsonl`: the dataset's bad rows;
 * - `results/<shard>/<case>.json` and `failures/<shard>/<case>.json` (see
 *   `caseShard`): one per case, under deterministic keys, so a redelivered
 *   message overwrites instead of adding;
 * - `progress.json` and `partials/`: the reducer's, see run-progress.ts and
 *   split-reduce.ts.
 */

export const manifestSchema = z.object({
  run_id: z.string(),
  suite: z.string(),
  dataset: z.object({ key: z.string(), etag: z.string() }),
  trigger: z.string(),
  config: z.record(z.string(), z.unknown()),
  config_hash: z.string(),
  created_at: z.string(),
  /** When the reducer stops waiting and reports the cases still missing. */
  deadline: z.string(),
  cases: z.number().int().nonnegative(),
  engines: z.array(z.string()),
  input_errors: z.number().int().nonnegative(),
  /** The first of them, as the terminal shows an input error; absent without any (and in manifests written before it was kept). */
  first_input_error: z.string().optional(),
  /** One line about the judge in use, e.g. "lexical judge (non-LLM approximations)". */
  judge: z.string(),
  /** The canary set the run judges too (config `canaries:`), as ingest read it; absent for a run without one. */
  canary: z
    .object({
      /** Its key in the store, `canaries/<suite>/<file>`. */
      key: z.string(),
      /** Its cases, listed in `canary-case-ids.json`: apart from the run's own, and not among `cases`. */
      cases: z.number().int().nonnegative(),
      input_errors: z.number().int().nonnegative(),
      /** The first of its input errors, such as a canary set missing from the store. */
      first_input_error: z.string().optional(),
    })
    .optional(),
});
export type Manifest = z.infer<typeof manifestSchema>;

export const caseIdsSchema = z.array(z.string());

const metricValueSchema = z.union([z.number(), z.string(), z.null(), z.array(z.union([z.number(), z.string(), z.null()])).readonly()]);

/** Tokens of real calls to one model; a cache hit adds none. */
export const modelTokensSchema = z.object({ input_tokens: z.number(), output_tokens: z.number() });
export type ModelTokens = z.infer<typeof modelTokensSchema>;

/**
 * Who answered a judge's calls, as the provider named it in its answer
 * (OpenAI's and Azure OpenAI's `model` and `system_fingerprint`; on Bedrock,
 * whose Converse answer names no model, the model id asked, or the model a
 * prompt router chose), and how many calls it answered. Never a key.
 */
export const answerIdentitySchema = z.object({ model: z.string(), system_fingerprint: z.string().optional() });
export type AnswerIdentity = z.infer<typeof answerIdentitySchema>;
export const answeredBySchema = answerIdentitySchema.extend({ calls: z.number() });
export type AnsweredBy = z.infer<typeof answeredBySchema>;

export const judgeUsageSchema = z.object({
  calls: z.number(),
  cache_hits: z.number(),
  retries: z.number(),
  /** Judgments that ended in error, of the calls and cache hits: never more than `calls` + `cache_hits`. */
  errors: z.number(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  /** Requests the judge server refused as over its rate limit, among calls + retries (absent when none was, and in records of older versions). */
  rate_limited: z.number().optional(),
  /**
   * Judgments answered by an identical request already in flight in the same
   * process: no call, no cache hit, no error of their own (their call's
   * failure is counted once, in `errors`). Absent when none was, and in
   * records of older versions, which counted them as cache hits.
   */
  shared_in_run: z.number().optional(),
  /** The tokens split by the model that answered, so a cost can be priced per model (absent in records of older versions). */
  models: z.record(z.string(), modelTokensSchema).optional(),
  /** Of the tokens by model, those of answers from batch jobs, priced at the provider's batch price (absent when none was). */
  batch_models: z.record(z.string(), modelTokensSchema).optional(),
  /** The identities that answered the calls (not the cache hits), in the order first seen; absent when no call was answered, and in records of older versions. */
  answered_by: z.array(answeredBySchema).optional(),
});
export type JudgeUsageRecord = z.infer<typeof judgeUsageSchema>;

/** Why a case's LLM judges were not asked; the only reason so far is the run's cost ceiling. */
export const judgingSkippedSchema = z.enum(['max_judge_cost']);

/**
 * What one engine returned for a case, kept so a regression can be inspected
 * query by query: its ranked list in compact form (`ranking`) where the list
 * allows it, else in object form (`retrieved`), and its response.
 */
export const rankedDocumentsSchema = z.array(
  z.object({
    doc_uri: z.string(),
    rank: z.number().int().positive(),
    score: z.number().finite().optional(),
    /** The human label of the document for this case (its grade; 1 when the label has none), when it has one. */
    human_grade: z.number().int().optional(),
  }),
);

export const engineOutputRecordSchema = z.union([
  z.object({ ranking: compactRankingSchema, response: z.string().optional() }).strict(),
  z.object({ retrieved: rankedDocumentsSchema, response: z.string().optional() }),
]);
export type EngineOutputRecord = z.infer<typeof engineOutputRecordSchema>;

/** Judge usage per judge id of one delivery that ended in a retry (`runs/<run>/attempt-usage/`). */
export const attemptUsageSchema = z.record(z.string(), judgeUsageSchema);

export const caseResultSchema = z.object({
  run_id: z.string(),
  case_id: z.string(),
  request_id: z.string(),
  request: z.string(),
  /** Metrics per engine: `<scope>/<source>/<metric>` -> value. */
  engines: z.record(z.string(), z.record(z.string(), metricValueSchema)),
  skipped: z.array(z.object({ judge: z.string(), engine: z.string(), reason: z.string() })),
  judge_usage: z.record(z.string(), judgeUsageSchema),
  /** Per engine, its ranked list and response as judged (live engines' answers included). */
  outputs: z.record(z.string(), engineOutputRecordSchema).optional(),
  /** Set when the case's LLM judges were not asked: `max_judge_cost`, the run's judge spend had passed run.max_judge_cost. */
  judging_skipped: judgingSkippedSchema.optional(),
});
export type CaseResult = z.infer<typeof caseResultSchema>;

export const caseFailureSchema = z.object({
  run_id: z.string(),
  case_id: z.string(),
  error: z.string(),
  receive_count: z.number().int().nonnegative(),
  /** The dead-lettered message itself, so `assay redrive` can send it again. */
  message: z.string(),
});
export type CaseFailure = z.infer<typeof caseFailureSchema>;

export const inputErrorLineSchema = inputErrorSchema;
