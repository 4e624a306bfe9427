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
  /** The deadline has come (or the caller's signal aborted): the signal aborts then, unless stopped before. */
  readonly expired: boolean;
  /** Why the call was stopped before its deadline (`stop`), if it was. */
  readonly stoppedWith: string | undefined;
  /** Ends the call before its deadline, its signal aborting with `reason` (a server found unreachable). */
  stop(reason: string): void;
  /** The call is over: its timer and its hold on the caller's signal are let go. */
  end(): void;
}

/**
 * The deadline of one call: a timer of its own, cleared when the call ends,
 * rather than `AbortSignal.timeout` and `AbortSignal.any`, whose signals are
 * only let go by the garbage collector (weak references and finalizers, a
 * judgment's noticeable share of CPU). It aborts as `AbortSignal.timeout`
 * does, with a TimeoutError.
 */
export function startDeadline(callDeadlineMs: number, options: CallDeadlineOptions = {}, now = Date.now()): CallDeadline {
  const callerDeadline =
    options.deadlineAt !== undefined && Number.isFinite(options.deadlineAt) ? options.deadlineAt : Number.POSITIVE_INFINITY;
  const deadlineAt = Math.min(now + callDeadlineMs, callerDeadline);
  const controller = new AbortController();
  let expired = false;
  let stoppedWith: string | undefined;
  const expire = (reason: unknown): void => {
    expired = true;
    controller.abort(reason);
  };
  const timer = setTimeout(() => expire(timeoutReason()), Math.max(0, deadlineAt - now));
  // As AbortSignal.timeout's: a deadline keeps no process alive.
  timer.unref();
  const caller = options.signal;
  const onCallerAbort = (): void => expire(caller?.reason);
  if (caller?.aborted === true) expire(caller.reason);
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    deadlineAt,
    signal: controller.signal,
    startedAt: now,
    outOfTime: false,
    get expired() {
      return expired;
    },
    get stoppedWith() {
      return stoppedWith;
    },
    stop: (reason) => {
      if (!controller.signal.aborted) stoppedWith = reason;
      controller.abort(reason);
    },
    end: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onCallerAbort);
    },
  };
}

/** What `AbortSignal.timeout` aborts with. */
export function timeoutReason(): DOMException {
  return new DOMException('The operation was aborted due to timeout', 'TimeoutError');
}

export function deadlineMessage(deadline: CallDeadline, callDeadlineMs: number, lastFailure: string | undefined): string {
  const elapsed = Date.now() - deadline.startedAt;
  const limit = `judge.call_deadline_ms is ${callDeadlineMs}; the caller may allow less, such as a worker's remaining time`;
  const last = lastFailure === undefined ? '' : `; the last answer: ${lastFailure}`;
  return `the judgment ran out of time: it stopped at its deadline after ${elapsed} ms (${limit})${last}; the case will be tried again`;
}
