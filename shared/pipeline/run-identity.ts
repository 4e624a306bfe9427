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

/** Store keys of a run's objects, in one place. */
export const runKeys = {
  manifest: (runId: string) => `runs/${runId}/manifest.json`,
  caseIds: (runId: string) => `runs/${runId}/case-ids.json`,
  ingested: (runId: string) => `runs/${runId}/ingested.json`,
  pendingMessages: (runId: string, offset: number) => `runs/${runId}/ingest/pending-${offset}.jsonl`,
  inputErrors: (runId: string) => `runs/${runId}/input-errors.jsonl`,
  claimCheck: (runId: string, caseId: string) => `runs/${runId}/cases/${caseId}.json`,
  result: (runId: string, caseId: string) => `runs/${runId}/results/${caseId}.json`,
  resultsPrefix: (runId: string) => `runs/${runId}/results/`,
  failure: (runId: string, caseId: string) => `runs/${runId}/failures/${caseId}.json`,
  failuresPrefix: (runId: string) => `runs/${runId}/failures/`,
  lastError: (runId: string, caseId: string) => `runs/${runId}/attempts/${caseId}.json`,
  /** Judge usage of one delivery that ended in a retry: paid for, but in no result. */
  attemptUsage: (runId: string, caseId: string, deliveryId: string) => `runs/${runId}/attempt-usage/${caseId}/${deliveryId}.json`,
  attemptUsagePrefix: (runId: string) => `runs/${runId}/attempt-usage/`,
  deadline: (runId: string) => `runs/${runId}/deadline.json`,
  /** What the run's live engines answered for a case, kept so a redelivery does not ask again. */
  engineAnswers: (runId: string, caseId: string) => `runs/${runId}/engine-answers/${caseId}.json`,
  report: (suite: string, runId: string, file: string) => `reports/${suite}/${runId}/${file}`,
  latest: (suite: string) => `reports/${suite}/latest.json`,
};
