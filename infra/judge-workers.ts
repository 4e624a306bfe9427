import type { Settings } from './settings.js';

/**
 * How the judge workers share the judge account's rate limit. Lambda runs up
 * to the event source's maximum concurrency of judge worker invocations at
 * once, each in a container of its own with its own rate governor
 * (shared/judge-rate/), so the account's rate is divided among them: each
 * container paces its calls at its part, given in its environment, and
 * divides a suite config's `judge.rate_limit` the same way. With a rate set,
 * the maximum concurrency is lowered so that each worker gets at least one
 * request a second (at least 2 workers, SQS's least), and as much
 * concurrency is reserved for the function, so that no more containers than
 * that ever share the account.
 */
export interface JudgeWorkers {
  /** The event source's maximum concurrency: judge worker invocations at once. */
  readonly maxConcurrency: number;
  /** Reserved concurrency of the judge worker function, when a judge rate is set. */
  readonly reservedConcurrency: number | undefined;
  /** The environment that tells each container its part. */
  readonly environment: Record<string, string>;
}

/** The least requests a minute each judge worker should get: one a second. */
const LEAST_WORKER_REQUESTS_PER_MINUTE = 60;
/** SQS event sources take a maximum concurrency of 2 and up. */
const LEAST_WORKERS = 2;

export function judgeWorkersOf(settings: Settings): JudgeWorkers {
  const { judgeRequestsPerMinute, judgeTokensPerMinute } = settings;
  const rated = judgeRequestsPerMinute !== undefined || judgeTokensPerMinute !== undefined;
  const byRequests =
    judgeRequestsPerMinute === undefined ? settings.maxConcurrency : Math.floor(judgeRequestsPerMinute / LEAST_WORKER_REQUESTS_PER_MINUTE);
  const workers = rated ? Math.max(LEAST_WORKERS, Math.min(settings.maxConcurrency, byRequests)) : settings.maxConcurrency;
  const environment: Record<string, string> = { ASSAY_JUDGE_WORKERS: String(workers) };
  if (judgeRequestsPerMinute !== undefined) environment.ASSAY_JUDGE_REQUESTS_PER_MINUTE = String(judgeRequestsPerMinute / workers);
  if (judgeTokensPerMinute !== undefined) environment.ASSAY_JUDGE_TOKENS_PER_MINUTE = String(judgeTokensPerMinute / workers);
  return { maxConcurrency: workers, reservedConcurrency: rated ? workers : undefined, environment };
}
