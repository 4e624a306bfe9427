import { createHash } from 'node:crypto';
import type { CaseIdRule } from '../dataset/index.js';

/**
 * Run ids and config hashes are derived, never random: the same dataset
 * object (key + ETag), config and trigger give the same run id, so a
 * duplicated upload event lands on the run that already exists.
 */
export function configHash(config: unknown): string {
  return createHash('sha256').update(canonicalJson(config)).digest('hex').slice(0, 16);
}

export function runIdFor(parts: { datasetKey: string; etag: string; configHash: string; trigger: string }): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([parts.datasetKey, parts.etag, parts.configHash, parts.trigger]))
    .digest('hex');
  return `r-${digest.slice(0, 16)}`;
}

/**
 * The run id and config hash of an ingest request: ingest derives them, and
 * a caller that must know the id before ingest has read the dataset (`assay
 * run`, to be resumable; `assay submit`, to name the run it starts) asks this
 * same function, so the two can never disagree.
 */
export function runIdentityOf(request: {
  readonly datasetKey: string;
  readonly etag: string;
  readonly trigger: string;
  readonly config: unknown;
}): { runId: string; configHash: string } {
  const hash = configHash(request.config);
  return {
    runId: runIdFor({ datasetKey: request.datasetKey, etag: request.etag, configHash: hash, trigger: request.trigger }),
    configHash: hash,
  };
}

/** JSON with object keys sorted at every level, so equal values hash equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/** A case id safe for a store key: the request id when it is, else a hash of it. */
export function caseIdFor(requestId: string): string {
  if (/^[A-Za-z0-9._-]{1,100}$/.test(requestId) && requestId !== '.' && requestId !== '..') return requestId;
  return `c-${createHash('sha256').update(requestId).digest('hex').slice(0, 20)}`;
}

/** caseIdFor as the dataset loader applies it, with the advice for two requests that share a case id. */
export const CASE_ID_RULE: CaseIdRule = {
  idOf: caseIdFor,
  fix: ' made of letters, digits, ".", "_" and "-" (up to 100 characters): such ids are case ids as they are, while any other id is hashed',
};

/**
 * The shard of a case: the first two hex digits of the SHA-256 of its id, so
 * 256 shards of a run hold about equal shares of its cases and anyone who
 * knows a case id knows its shard, without a lookup. Results and failures are
 * stored per shard, so that a completion check lists only the shards not yet
 * complete (see run-progress.ts).
 */
export function caseShard(caseId: string): string {
  return createHash('sha256').update(caseId).digest('hex').slice(0, 2);
}

/** Every shard name, in order: "00" to "ff". */
export const CASE_SHARDS: readonly string[] = Array.from({ length: 256 }, (_, index) => index.toString(16).padStart(2, '0'));

/** Store keys of a run's objects, in one place. */
export const runKeys = {
  manifest: (runId: string) => `runs/${runId}/manifest.json`,
  caseIds: (runId: string) => `runs/${runId}/case-ids.json`,
  /** The ids of the run's canary cases (config `canaries:`), apart from its own. */
  canaryCaseIds: (runId: string) => `runs/${runId}/canary-case-ids.json`,
  ingested: (runId: string) => `runs/${runId}/ingested.json`,
  pendingMessages: (runId: string, offset: number) => `runs/${runId}/ingest/pending-${offset}.jsonl`,
  inputErrors: (runId: string) => `runs/${runId}/input-errors.jsonl`,
  claimCheck: (runId: string, caseId: string) => `runs/${runId}/cases/${caseId}.json`,
  result: (runId: string, caseId: string) => `runs/${runId}/results/${caseShard(caseId)}/${caseId}.json`,
  resultsPrefix: (runId: string) => `runs/${runId}/results/`,
  resultsShardPrefix: (runId: string, shard: string) => `runs/${runId}/results/${shard}/`,
  failure: (runId: string, caseId: string) => `runs/${runId}/failures/${caseShard(caseId)}/${caseId}.json`,
  failuresPrefix: (runId: string) => `runs/${runId}/failures/`,
  failuresShardPrefix: (runId: string, shard: string) => `runs/${runId}/failures/${shard}/`,
  /** The shards whose cases all have a result or a failure, written by completion checks. */
  progress: (runId: string) => `runs/${runId}/progress.json`,
  /** One range of the run's sorted case ids, aggregated by one reducer invocation of a split reduce. */
  partial: (runId: string, range: number) => `runs/${runId}/partials/${String(range).padStart(6, '0')}.json`,
  partialsPrefix: (runId: string) => `runs/${runId}/partials/`,
  /** That range's lines of cases.jsonl. */
  partialLines: (runId: string, range: number) => `runs/${runId}/partials/${String(range).padStart(6, '0')}.jsonl`,
  lastError: (runId: string, caseId: string) => `runs/${runId}/attempts/${caseId}.json`,
  /** Judge usage of one delivery that ended in a retry: paid for, but in no result. */
  attemptUsage: (runId: string, caseId: string, deliveryId: string) => `runs/${runId}/attempt-usage/${caseId}/${deliveryId}.json`,
  attemptUsagePrefix: (runId: string) => `runs/${runId}/attempt-usage/`,
  deadline: (runId: string) => `runs/${runId}/deadline.json`,
  /** One worker's judge spend on the run so far (judge-budget.ts): each worker writes only its own. */
  judgeSpend: (runId: string, workerId: string) => `runs/${runId}/judge-spend/${workerId}.json`,
  judgeSpendPrefix: (runId: string) => `runs/${runId}/judge-spend/`,
  /** Written once the run's judge spend passed run.max_judge_cost: workers then skip the LLM judges of the cases left. */
  judgeBudgetReached: (runId: string) => `runs/${runId}/judge-budget-reached`,
  /** What the run's live engines answered for a case, kept so a redelivery does not ask again. */
  engineAnswers: (runId: string, caseId: string) => `runs/${runId}/engine-answers/${caseId}.json`,
  report: (suite: string, runId: string, file: string) => `reports/${suite}/${runId}/${file}`,
  latest: (suite: string) => `reports/${suite}/latest.json`,
};
