import { describe, expect, it } from 'vitest';
import type { Connector, ConnectorResult } from '../../../shared/engines/engine.js';
import { backoffMs, retryingEngine, type RetryPolicy } from '../../../shared/engines/retrying-engine.js';

const HIT: ConnectorResult = { ok: true, value: { hits: [{ doc_uri: 'd1', score: 1 }] } };
const REQUEST = { query: 'keys', request_id: 'q1' };

/** A connector that plays a script of outcomes, one per attempt, and records when each attempt started. */
function scripted(outcomes: readonly (ConnectorResult | 'hang' | 'throw')[]): Connector & { starts: number[] } {
  const starts: number[] = [];
  return {
    starts,
    async attempt() {
      const outcome = outcomes[starts.length] ?? HIT;
      starts.push(performance.now());
      if (outcome === 'hang') return new Promise<ConnectorResult>(() => undefined);
      if (outcome === 'throw') throw new TypeError('a bug in the connector');
      return outcome;
    },
    close: async () => undefined,
  };
}

const transient = (message: string, retryAfterMs?: number): ConnectorResult => ({
  ok: false,
  error: { kind: 'transient', message, ...(retryAfterMs === undefined ? {} : { retry_after_ms: retryAfterMs }) },
});
const permanent = (message: string): ConnectorResult => ({ ok: false, error: { kind: 'permanent', message } });
const FAST: RetryPolicy = { retries: 3, timeoutMs: 1_000, baseDelayMs: 5, maxDelayMs: 20 };

describe('retryingEngine', () => {
  it('answers with the hits and the latency of the successful attempt', async () => {
    // Prepare
    const connector = scripted([transient('HTTP 503'), HIT]);

    // Act
    const result = await retryingEngine('e', connector, FAST, []).call(REQUEST, new AbortController().signal);

    // Assess
    expect(result.ok && result.value.hits).toEqual([{ doc_uri: 'd1', score: 1 }]);
    expect(result.ok && result.value.latency_ms).toBeGreaterThanOrEqual(0);
    expect(result.ok && result.value.attempts).toBe(2);
    expect(connector.starts).toHaveLength(2);
  });

  it('does not retry a permanent failure', async () => {
    // Prepare
    const connector = scripted([permanent('HTTP 404')]);

    // Act
    const result = await retryingEngine('e', connector, FAST, []).call(REQUEST, new AbortController().signal);

    // Assess
    expect(result).toEqual({ ok: false, error: { kind: 'permanent', message: 'HTTP 404' } });
    expect(connector.starts).toHaveLength(1);
  });

  it('stops after its retries and says how many attempts it made', async () => {
    // Prepare
    const connector = scripted([transient('HTTP 503'), transient('HTTP 503'), transient('HTTP 502')]);

    // Act
    const result = await retryingEngine('e', connector, { ...FAST, retries: 2 }, []).call(REQUEST, new AbortController().signal);

    // Assess
    expect(result).toEqual({ ok: false, error: { kind: 'transient', message: 'HTTP 502 (after 3 attempts)' } });
  });

  it('waits at least as long as Retry-After asks', async () => {
    // Prepare
    const connector = scripted([transient('HTTP 429', 300), HIT]);

    // Act
    await retryingEngine('e', connector, FAST, []).call(REQUEST, new AbortController().signal);

    // Assess
    const [first = 0, second = 0] = connector.starts;
    expect(second - first).toBeGreaterThanOrEqual(295);
  });

  it('backs off exponentially up to the cap, with a jitter fixed by engine, request and attempt', () => {
    // Act
    const waits = [0, 1, 2, 3, 4, 5].map((attempt) => backoffMs('bm25', 'q1', attempt, 250, 4_000));

    // Assess: attempt n waits between half and all of min(4000, 250 × 2^n).
    waits.forEach((wait, attempt) => {
      const full = Math.min(4_000, 250 * 2 ** attempt);
      expect(wait).toBeGreaterThanOrEqual(full / 2);
      expect(wait).toBeLessThanOrEqual(full);
    });
    expect([0, 1, 2, 3, 4, 5].map((attempt) => backoffMs('bm25', 'q1', attempt, 250, 4_000))).toEqual(waits);
    expect(new Set(['q1', 'q2', 'q3', 'q4'].map((requestId) => backoffMs('bm25', requestId, 0, 250, 4_000))).size).toBe(4);
  });

  it('times out an attempt that never answers, from a service that has answered before', async () => {
    // Prepare: one answer, then two attempts that never end
    const connector = scripted([HIT, 'hang', 'hang']);
    const engine = retryingEngine('e', connector, { ...FAST, retries: 1, timeoutMs: 50 }, []);
    await engine.call(REQUEST, new AbortController().signal);

    // Act
    const result = await engine.call(REQUEST, new AbortController().signal);

    // Assess
    expect(result).toEqual({ ok: false, error: { kind: 'transient', message: 'timed out after 50 ms (after 2 attempts)' } });
  });

  it('stops waiting to retry when the deadline passes', async () => {
    // Prepare
    const connector = scripted([transient('HTTP 503')]);

    // Act
    const result = await retryingEngine('e', connector, { retries: 5, timeoutMs: 1_000, baseDelayMs: 10_000 }, []).call(
      REQUEST,
      AbortSignal.timeout(100),
    );

    // Assess
    expect(result).toEqual({ ok: false, error: { kind: 'transient', message: 'HTTP 503; the deadline passed while waiting to retry' } });
    expect(connector.starts).toHaveLength(1);
  });

  it('does not call at all past the deadline', async () => {
    // Prepare
    const connector = scripted([HIT]);

    // Act
    const result = await retryingEngine('e', connector, FAST, []).call(REQUEST, AbortSignal.abort());

    // Assess
    expect(result).toEqual({ ok: false, error: { kind: 'transient', message: 'the deadline passed before the first attempt' } });
    expect(connector.starts).toHaveLength(0);
  });

  it('masks every secret value in failure messages', async () => {
    // Prepare
    const connector = scripted([permanent('401: token tok-123456 rejected for tok-123456-extended')]);

    // Act
    const result = await retryingEngine('e', connector, FAST, ['tok-123456', 'tok-123456-extended']).call(
      REQUEST,
      new AbortController().signal,
    );

    // Assess
    expect(!result.ok && result.error.message).toBe('401: token [redacted] rejected for [redacted]');
  });

  it.each([
    ['URL-encoded, as a URL template sends it', 'key=tok%2FVq7Xw2%2BLm9Tz4%3DRb8 was refused', 'key=[redacted] was refused'],
    ['escaped in a JSON string', '{"error": "bad ab\\"cd\\"ef\\"gh\\"ij\\"kl"}', '{"error": "bad [redacted]"}'],
    ['cut to its first and last characters', 'token tok/Vq7Xw2...m9Tz4=Rb8 unknown', 'token [redacted]...[redacted] unknown'],
  ])('masks a secret that comes back %s', async (_described, message, expected) => {
    // Prepare: secrets with characters that URL encoding and JSON escaping change
    const connector = scripted([permanent(message)]);

    // Act
    const result = await retryingEngine('e', connector, FAST, ['tok/Vq7Xw2+Lm9Tz4=Rb8', 'ab"cd"ef"gh"ij"kl']).call(
      REQUEST,
      new AbortController().signal,
    );

    // Assess
    expect(!result.ok && result.error.message).toBe(expected);
  });

  it('lets a bug in a connector throw', async () => {
    await expect(retryingEngine('e', scripted(['throw']), FAST, []).call(REQUEST, new AbortController().signal)).rejects.toThrow(
      'a bug in the connector',
    );
  });
});

describe('retryingEngine: a service that accepts and never answers', () => {
  const silentAfter = (timeoutMs: number): string =>
    `the service sent no answer: an attempt timed out after ${timeoutMs} ms (the engine's timeout_ms), and the attempt after it got no answer either; ` +
    "check the engine's address and that the service answers there, or raise its timeout_ms for one that takes longer to start";
  const SILENT = silentAfter(50);

  it('is found silent after two attempts in a row got no answer, and every call fails at once while the verdict holds', async () => {
    // Prepare: a service never heard from, whose attempts never end
    let time = 1_000;
    const connector = scripted(['hang', 'hang', 'hang', 'hang', 'hang']);
    const engine = retryingEngine('e', connector, { ...FAST, retries: 3, timeoutMs: 50 }, [], () => time);

    // Act
    const first = await engine.call(REQUEST, new AbortController().signal);
    time += 29_999;
    const held = await engine.call(REQUEST, new AbortController().signal);
    const attemptsWhileHeld = connector.starts.length;
    time += 1;
    const after = await engine.call(REQUEST, new AbortController().signal);

    // Assess: two attempts, not four; none while held; after the hold the service is asked again
    expect(first).toEqual({ ok: false, error: { kind: 'transient', message: `${SILENT} (after 2 attempts)` } });
    expect(held).toEqual({ ok: false, error: { kind: 'transient', message: SILENT } });
    expect(attemptsWhileHeld).toBe(2);
    expect(after).toEqual({ ok: false, error: { kind: 'transient', message: `${SILENT} (after 2 attempts)` } });
    expect(connector.starts).toHaveLength(4);
  });

  it('lets a service silent at first (a cold start) answer the next attempt, and never takes it for silent after that', async () => {
    // Prepare
    const connector = scripted(['hang', HIT, 'hang', 'hang']);
    const engine = retryingEngine('e', connector, { ...FAST, retries: 1, timeoutMs: 50 }, []);

    // Act
    const first = await engine.call(REQUEST, new AbortController().signal);
    const second = await engine.call(REQUEST, new AbortController().signal);

    // Assess
    expect(first).toMatchObject({ ok: true, value: { attempts: 2 } });
    expect(second).toEqual({ ok: false, error: { kind: 'transient', message: 'timed out after 50 ms (after 2 attempts)' } });
  });

  it('ends the calls in flight when one of them finds the service silent', async () => {
    // Prepare: two calls at once; the second starts its first attempt after the first call's first attempt timed out (at 200 ms)
    const connector = scripted(['hang', 'hang', 'hang']);
    const engine = retryingEngine('e', connector, { ...FAST, retries: 1, timeoutMs: 200, baseDelayMs: 0, maxDelayMs: 0 }, []);
    const first = engine.call(REQUEST, new AbortController().signal);
    await new Promise((resolve) => setTimeout(resolve, 260));
    const startedAt = performance.now();

    // Act: the second call's attempt would take 200 ms; the first call's retry ends in silence at about 400 ms, 140 ms into it
    const second = await engine.call({ ...REQUEST, request_id: 'q2' }, new AbortController().signal);

    // Assess
    expect(await first).toEqual({ ok: false, error: { kind: 'transient', message: `${silentAfter(200)} (after 2 attempts)` } });
    expect(second).toEqual({ ok: false, error: { kind: 'transient', message: silentAfter(200) } });
    expect(performance.now() - startedAt).toBeLessThan(195);
  });
});
