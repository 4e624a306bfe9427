import { describe, expect, it } from 'vitest';
import { pollJob } from '../../../shared/batch-judging/batch-jobs.js';
import type { JobRecord } from '../../../shared/batch-judging/batch-state.js';
import type { BatchJobStatus, BatchProvider } from '../../../shared/batch-providers/batch-provider.js';
import { rememberSecret } from '../../../shared/secrets/scrub-secrets.js';

/**
 * A look at a job, as its record keeps it: a job finished by its state whose
 * files the provider does not name yet is looked at again before its lines
 * count as not run; the provider's window is kept, for how long an outage is
 * waited out; the provider's words are kept redacted.
 */
const KEY = 'sk-polling-ZxCvBnMqWeRtYuIo';
rememberSecret(KEY);
const now = () => new Date('2026-11-28T12:00:00Z');

function providerAnswering(status: BatchJobStatus): BatchProvider {
  return {
    name: 'the test provider',
    limits: { minRequests: 1, maxRequests: 100, maxBytes: 1_000_000 },
    line: () => '',
    find: async () => undefined,
    create: async () => ({ id: 'batch_1' }),
    status: async () => status,
    answers: async function* () {},
    cancel: async () => {},
  };
}

const job: JobRecord = {
  key: 'r-00000000000000d1-r0-j0',
  round: 0,
  provider_id: 'batch_1',
  requests: 4,
  state: 'in_progress',
  phase: 'running',
  collected: false,
};

describe('a look at a job', () => {
  it('waits five looks for the files of a job finished without them, then takes it as finished', async () => {
    // Prepare
    const provider = providerAnswering({
      state: 'completed',
      phase: 'finished',
      counts: { total: 4, completed: 4, failed: 0 },
      errors: [],
      filesPending: true,
    });

    // Act
    const looks: JobRecord[] = [];
    let current = job;
    for (let look = 0; look < 6; look++) {
      current = await pollJob(provider, current, now);
      looks.push(current);
    }

    // Assess
    expect(looks.map((looked) => looked.phase)).toEqual(['running', 'running', 'running', 'running', 'running', 'finished']);
    expect(looks.map((looked) => looked.looks_without_files)).toEqual([1, 2, 3, 4, 5, 5]);
    expect(looks[5]?.finished_at).toBe(now().toISOString());
  });

  it("keeps the provider's window, and its state and errors without a key it echoed", async () => {
    // Prepare
    const provider = providerAnswering({
      state: `failed ${KEY}`,
      phase: 'failed',
      counts: undefined,
      errors: [{ code: 'invalid_request', message: `Incorrect API key provided: ${KEY}`, line: 2 }],
      expiresAt: new Date('2026-11-29T11:00:00Z'),
    });

    // Act
    const looked = await pollJob(provider, job, now);

    // Assess
    expect(looked.expires_at).toBe('2026-11-29T11:00:00.000Z');
    expect(JSON.stringify(looked)).not.toContain(KEY.slice(11, 19));
    expect(looked.errors).toEqual([{ code: 'invalid_request', message: 'Incorrect API key provided: [redacted]', line: 2 }]);
  });
});
