import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Connector, ConnectorAnswer, ConnectorResult, Engine, EngineFailure, EngineRequest, EngineResult } from './engine.js';
import { removeKnownSecrets, scrubSecrets } from '../secrets/scrub-secrets.js';
import { secretForms } from '../secrets/secret-forms.js';
import { HeldVerdict, SilenceWatch } from '../network/silence-watch.js';

export interface RetryPolicy {
  /** Further attempts after a transient failure. */
  readonly retries: number;
  /** What one attempt may take. */
  readonly timeoutMs: number;
  /** First backoff; it doubles each attempt up to maxDelayMs. */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
}

/**
 * Wraps a connector into an Engine: a timeout per attempt, retries of
 * transient failures with exponential backoff (at least as long as a
 * Retry-After asks), all bounded by the caller's deadline signal; every
 * failure message passes through `scrubSecrets` with the engine's secret
 * values in the forms they may come back in, as judge errors do, and an
 * answer's documents and response lose any run of those values (a service
 * that echoes its key into a hit must not get it stored).
 *
 * The backoff's jitter is a hash of engine, request and attempt instead of a
 * random number: the cases of one run still spread their retries, and the
 * same run waits the same way every time.
 */
export function retryingEngine(
  name: string,
  connector: Connector,
  policy: RetryPolicy,
  secrets: readonly string[],
  now: () => number = Date.now,
): Engine {
  const baseDelayMs = policy.baseDelayMs ?? 250;
  const maxDelayMs = policy.maxDelayMs ?? 4000;
  const forms = secretForms(secrets);
  const fail = (failure: EngineFailure, attempts: number): EngineResult => {
    const message = attempts > 1 ? `${failure.message} (after ${attempts} attempts)` : failure.message;
    return { ok: false, error: { ...failure, message: scrubSecrets(message, forms) } };
  };
  // A service that has never answered and lets two attempts in a row time out is silent: every call of it fails at once for a while.
  const silence = new SilenceWatch(now);
  const verdict = new HeldVerdict(now);
  let stopCalls = new AbortController();

  return {
    name,
    close: () => connector.close(),
    async call(request: EngineRequest, deadline: AbortSignal): Promise<EngineResult> {
      let last: EngineFailure = { kind: 'transient', message: 'the deadline passed before the first attempt' };
      for (let attempt = 0; attempt <= policy.retries; attempt += 1) {
        if (deadline.aborted) {
          return attempt === 0
            ? fail(last, 0)
            : fail({ ...last, message: `${last.message}; the deadline passed before attempt ${attempt + 1}` }, attempt);
        }
        const held = verdict.current;
        if (held !== undefined) return fail({ kind: 'transient', message: held }, attempt);
        const started = performance.now();
        const startedAt = now();
        const stop = stopCalls.signal;
        const result = await attemptOnce(connector, request, deadline, policy.timeoutMs, stop);
        if (result.ok || result.error.kind === 'permanent') silence.heardFrom();
        else if (stop.aborted) return fail({ kind: 'transient', message: String(stop.reason) }, attempt + 1);
        else if ('silent' in result && silence.noAnswer(startedAt)) {
          const reason = silentMessage(policy.timeoutMs);
          verdict.hold(reason);
          stopCalls.abort(reason);
          stopCalls = new AbortController();
          return fail({ kind: 'transient', message: reason }, attempt + 1);
        }
        if (result.ok) {
          const latency = Math.round((performance.now() - started) * 10) / 10;
          const { hits, response } = withoutSecrets(result.value, forms);
          return {
            ok: true,
            value: { hits, ...(response === undefined ? {} : { response }), latency_ms: latency, attempts: attempt + 1 },
          };
        }
        last = result.error;
        if (last.kind === 'permanent' || attempt === policy.retries || deadline.aborted) return fail(last, attempt + 1);
        const backoff = backoffMs(name, request.request_id, attempt, baseDelayMs, maxDelayMs);
        try {
          await sleep(Math.max(backoff, last.retry_after_ms ?? 0), undefined, { signal: deadline });
        } catch {
          return fail({ ...last, message: `${last.message}; the deadline passed while waiting to retry` }, attempt + 1);
        }
      }
      return fail(last, policy.retries + 1);
    },
  };
}

/** An attempt's result; `silent` when it got no answer before its timeout or the deadline cut it. */
type AttemptResult = ConnectorResult | { readonly ok: false; readonly error: EngineFailure; readonly silent: true };

function silentMessage(timeoutMs: number): string {
  return (
    `the service sent no answer: an attempt timed out after ${timeoutMs} ms (the engine's timeout_ms), and the attempt after it ` +
    "got no answer either; check the engine's address and that the service answers there, or raise its timeout_ms for one that takes longer to start"
  );
}

async function attemptOnce(
  connector: Connector,
  request: EngineRequest,
  deadline: AbortSignal,
  timeoutMs: number,
  stopCalls: AbortSignal,
): Promise<AttemptResult> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([deadline, timeout, stopCalls]);
  // A driver that cannot be cancelled (pg) must not hold the caller past the timeout.
  let stop: (() => void) | undefined;
  const stopped = new Promise<'stopped'>((resolve) => {
    stop = () => resolve('stopped');
    signal.addEventListener('abort', stop, { once: true });
  });
  try {
    const outcome = await Promise.race([connector.attempt(request, signal), stopped]);
    if (outcome !== 'stopped' && (outcome.ok || !signal.aborted)) return outcome;
  } catch (error) {
    if (!signal.aborted) throw error;
  } finally {
    if (stop !== undefined) signal.removeEventListener('abort', stop);
  }
  if (stopCalls.aborted && !deadline.aborted && !timeout.aborted)
    return { ok: false, error: { kind: 'transient', message: String(stopCalls.reason) } };
  return deadline.aborted
    ? { ok: false, error: { kind: 'transient', message: 'stopped at the deadline' }, silent: true }
    : { ok: false, error: { kind: 'transient', message: `timed out after ${timeoutMs} ms` }, silent: true };
}

/** The wait before retry `attempt + 1`: base × 2^attempt, capped, times a factor from 0.5 to 1 fixed by engine, request and attempt. */
export function backoffMs(name: string, requestId: string, attempt: number, baseDelayMs: number, maxDelayMs: number): number {
  const digest = createHash('sha256').update(`${name}\n${requestId}\n${attempt}`).digest();
  const jitter = 0.5 + digest.readUInt16BE(0) / 0xffff / 2;
  return Math.min(maxDelayMs, baseDelayMs * 2 ** attempt) * jitter;
}

/** The answer without the engine's secret values: they are removed from ids, contents and the response, where any of them appears. */
function withoutSecrets(result: ConnectorAnswer, forms: readonly string[]): ConnectorAnswer {
  const clean = (text: string): string => removeKnownSecrets(text, forms);
  const hits = result.hits.map((hit) => {
    const docUri = clean(hit.doc_uri);
    const content = hit.content === undefined ? undefined : clean(hit.content);
    return docUri === hit.doc_uri && content === hit.content
      ? hit
      : { ...hit, doc_uri: docUri, ...(content === undefined ? {} : { content }) };
  });
  return { hits, ...(result.response === undefined ? {} : { response: clean(result.response) }) };
}
