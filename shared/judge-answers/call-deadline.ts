/**
 * The time one judgment may take, over all its HTTP attempts, the SDK's
 * retry waits and its repair request: `judge.call_deadline_ms`, or less when
 * the caller has less (a Lambda's remaining time minus a margin). A judgment
 * stopped by it is a transient failure: the case goes back through the queue
 * instead of the worker being killed in the middle of its batch.
 */
export interface CallDeadlineOptions {
  /** The caller's own limit: an AbortSignal, or an epoch time in milliseconds. */
  readonly signal?: AbortSignal | undefined;
  readonly deadlineAt?: number | undefined;
}

export interface CallDeadline {
  /** Epoch milliseconds; the signal may abort sooner when the caller's signal does. */
  readonly deadlineAt: number;
  readonly signal: AbortSignal;
  readonly startedAt: number;
  /** Set when a retry was not started because its wait would end past the deadline. */
  outOfTime: boolean;
}

export function startDeadline(callDeadlineMs: number, options: CallDeadlineOptions = {}, now = Date.now()): CallDeadline {
  const callerDeadline =
    options.deadlineAt !== undefined && Number.isFinite(options.deadlineAt) ? options.deadlineAt : Number.POSITIVE_INFINITY;
  const deadlineAt = Math.min(now + callDeadlineMs, callerDeadline);
  const signals = [AbortSignal.timeout(Math.max(0, deadlineAt - now))];
  if (options.signal !== undefined) signals.push(options.signal);
  return { deadlineAt, signal: AbortSignal.any(signals), startedAt: now, outOfTime: false };
}

export function deadlineMessage(deadline: CallDeadline, callDeadlineMs: number, lastFailure: string | undefined): string {
  const elapsed = Date.now() - deadline.startedAt;
  const limit = `judge.call_deadline_ms is ${callDeadlineMs}; the caller may allow less, such as a worker's remaining time`;
  const last = lastFailure === undefined ? '' : `; the last answer: ${lastFailure}`;
  return `the judgment ran out of time: it stopped at its deadline after ${elapsed} ms (${limit})${last}; the case will be tried again`;
}
