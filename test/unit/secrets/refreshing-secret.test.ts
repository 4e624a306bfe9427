import { describe, expect, it } from 'vitest';
import { REDACTED, RefreshingSecret } from '../../../shared/secrets/refreshing-secret.js';

const MAX_AGE_MS = 300_000;

/** A secret store whose answers the test scripts, one per read, and a clock the test moves. */
function scriptedSecret(answers: readonly (string | undefined | Error)[]) {
  const clock = { now: 1_000_000 };
  let reads = 0;
  const secret = new RefreshingSecret({
    name: 'the judge secret arn:aws:secretsmanager:us-east-1:123456789012:secret:judge',
    maxAgeMs: MAX_AGE_MS,
    now: () => clock.now,
    fetch: async () => {
      const answer = answers[Math.min(reads, answers.length - 1)];
      reads += 1;
      if (answer instanceof Error) throw answer;
      return answer;
    },
  });
  return { secret, clock, reads: () => reads };
}

/** A read that resolves only when the test says so, to have several callers wait on it. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return { promise, resolve, reject };
}

describe('RefreshingSecret', () => {
  it('reads again after a failed read instead of keeping the failure', async () => {
    // Prepare
    const { secret, reads } = scriptedSecret([new Error('AccessDeniedException: not authorized'), 'sk-live']);

    // Act, Assess
    await expect(secret.read()).rejects.toThrow(
      'Could not read the judge secret arn:aws:secretsmanager:us-east-1:123456789012:secret:judge: AccessDeniedException: not authorized',
    );
    await expect(secret.read()).resolves.toBe('sk-live');
    expect(reads()).toBe(2);
  });

  it.each([
    ['just under the maximum age: the held value, no read', MAX_AGE_MS - 1, 'sk-old', 1],
    ['at the maximum age: read again, the rotated value', MAX_AGE_MS, 'sk-new', 2],
    ['long after it: read again, the rotated value', 10 * MAX_AGE_MS, 'sk-new', 2],
  ])('%s', async (_name, elapsedMs, expected, expectedReads) => {
    // Prepare
    const { secret, clock, reads } = scriptedSecret(['sk-old', 'sk-new']);
    await secret.read();

    // Act
    clock.now += elapsedMs;
    const value = await secret.read();

    // Assess
    expect(value).toBe(expected);
    expect(reads()).toBe(expectedReads);
  });

  it('holds a new value for the maximum age from when it was read', async () => {
    const { secret, clock, reads } = scriptedSecret(['sk-1', 'sk-2', 'sk-3']);
    await secret.read();
    clock.now += MAX_AGE_MS;
    await secret.read();

    clock.now += MAX_AGE_MS - 1;

    await expect(secret.read()).resolves.toBe('sk-2');
    expect(reads()).toBe(2);
  });

  it('gives callers that arrive during a read that read, and nothing more', async () => {
    // Prepare
    const pending = deferred<string>();
    let reads = 0;
    const secret = new RefreshingSecret({
      name: 'the judge secret',
      maxAgeMs: MAX_AGE_MS,
      now: () => 0,
      fetch: () => {
        reads += 1;
        return pending.promise;
      },
    });

    // Act
    const callers = [secret.read(), secret.read(), secret.read()];
    pending.resolve('sk-shared');

    // Assess
    expect(await Promise.all(callers)).toEqual(['sk-shared', 'sk-shared', 'sk-shared']);
    expect(reads).toBe(1);
  });

  it('gives callers that arrive during a failing read its failure, and the next caller a new read', async () => {
    // Prepare
    const pending = deferred<string>();
    let reads = 0;
    const secret = new RefreshingSecret({
      name: 'the judge secret',
      maxAgeMs: MAX_AGE_MS,
      now: () => 0,
      fetch: () => {
        reads += 1;
        return reads === 1 ? pending.promise : Promise.resolve('sk-later');
      },
    });

    // Act
    const callers = [secret.read(), secret.read()];
    pending.reject(new Error('ThrottlingException'));
    const outcomes = await Promise.allSettled(callers);

    // Assess
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(reads).toBe(1);
    await expect(secret.read()).resolves.toBe('sk-later');
    expect(reads).toBe(2);
  });

  it('keeps every value it has read, the rotated ones included, out of its error messages', async () => {
    // Prepare: two values read, then a store whose error repeats both (as a parse error quoting its input would)
    const { secret, clock } = scriptedSecret([
      'sk-first-0123456789',
      'sk-second-9876543210',
      new Error('cannot use "sk-first-0123456789" nor "sk-second-9876543210"'),
    ]);
    await secret.read();
    clock.now += MAX_AGE_MS;
    await secret.read();
    clock.now += MAX_AGE_MS;

    // Act
    const error = await secret.read().then(
      () => undefined,
      (thrown: unknown) => thrown as Error,
    );

    // Assess
    expect(error?.message).toBe(
      `Could not read the judge secret arn:aws:secretsmanager:us-east-1:123456789012:secret:judge: cannot use "${REDACTED}" nor "${REDACTED}"`,
    );
    for (const text of [error?.message, error?.stack, String(error?.cause)]) {
      expect(text).not.toContain('sk-first');
      expect(text).not.toContain('sk-second');
    }
  });

  it('holds "no value" like a value, so an empty secret is not read on every call', async () => {
    const { secret, reads } = scriptedSecret([undefined, 'sk-set-later']);

    await expect(secret.read()).resolves.toBeUndefined();
    await expect(secret.read()).resolves.toBeUndefined();
    expect(reads()).toBe(1);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('refuses a maximum age of %s', (maxAgeMs) => {
    expect(() => new RefreshingSecret({ name: 'the judge secret', maxAgeMs, fetch: async () => 'sk' })).toThrow(
      `Expected maxAgeMs to be a number of milliseconds from 0 up, got ${maxAgeMs}`,
    );
  });
});
