import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPlanned, planJobs, submitJobs } from '../../shared/batch-judging/batch-jobs.js';
import type { BatchState } from '../../shared/batch-judging/batch-state.js';
import { readBatchState } from '../../shared/batch-judging/batch-state.js';
import { batchKeys, batchRequestId, type BatchRequest } from '../../shared/schema/batch-request.js';
import { openAiBatchProvider } from '../../shared/batch-providers/openai-batch-provider.js';
import { MemoryStore } from '../../shared/ports/memory-store.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiBatchServer, type OpenAiBatchServer } from '../support/openai-batch-server.js';

/**
 * The jobs of a round against a server that speaks OpenAI's batch API: what
 * goes in a job, and a job that a process created at the provider but died
 * before recording, found again by its key instead of paid for twice.
 */
const RUN = 'r-00000000000000aa';
const now = () => new Date('2026-11-28T00:00:00Z');

function request(model: string, index: number): BatchRequest {
  const body = { model, messages: [{ role: 'user', content: `judge passage ${index}` }], temperature: 0 };
  return { id: batchRequestId(body, 0, 0), judge: 'chunk_relevance', model, sample: 0, attempt: 0, body };
}

let server: OpenAiBatchServer;
beforeEach(async () => {
  server = await startOpenAiBatchServer({ oracle: catalogOracle, progress: 'manual' });
});
afterEach(() => server.close());

describe('the jobs of a round', () => {
  it('holds one model a job, at most as many requests as a job may, the same requests always in the same jobs', () => {
    // Prepare: 5 requests of model a and 2 of model b, at most 2 a job
    const provider = openAiBatchProvider({ kind: 'openai', baseUrl: server.baseUrl, apiKey: 'sk-plan' });
    const requests = [...Array.from({ length: 5 }, (_, index) => request('a', index)), request('b', 0), request('b', 1)];

    // Act
    const planned = planJobs(requests, provider, 2);
    const again = planJobs([...requests].reverse(), provider, 2);

    // Assess: a: 2 + 2 + 1; b: 2
    expect(planned.map((job) => job.ids.length)).toEqual([2, 2, 1, 2]);
    expect(
      planned.map((job) => new Set(job.lines.map((line) => (JSON.parse(line) as { body: { model: string } }).body.model)).size),
    ).toEqual([1, 1, 1, 1]);
    expect(again).toEqual(planned);
    expect(JSON.parse(planned[0]?.lines[0] ?? '')).toMatchObject({
      custom_id: planned[0]?.ids[0],
      method: 'POST',
      url: '/v1/chat/completions',
    });
  });

  it('finds a job created at the provider by a process that died before recording it, instead of creating a second', async () => {
    // Prepare: a job planned and recorded, then created at the provider by a process that died before it recorded the id
    const store = new MemoryStore();
    const provider = openAiBatchProvider({ kind: 'openai', baseUrl: server.baseUrl, apiKey: 'sk-find' });
    const planned = planJobs([request('a', 0), request('a', 1)], provider, undefined);
    const submitted = await submitJobs(store, provider, RUN, { round: 0, jobs: [] }, planned, now);
    const [job] = submitted.jobs;
    const orphan: BatchState = {
      round: 0,
      jobs: submitted.jobs.map((known) => ({ ...known, provider_id: undefined, state: 'planned', phase: 'planned' })),
    };
    await store.put(batchKeys.state(RUN), JSON.stringify(orphan));

    // Act: the next process creates what the state says is not created yet
    const recovered = await createPlanned(store, provider, RUN, await readBatchState(store, RUN), now);

    // Assess
    expect(server.batches.size).toBe(1);
    expect(recovered.jobs[0]?.provider_id).toBe(job?.provider_id);
    expect((await readBatchState(store, RUN)).jobs[0]).toMatchObject({
      key: `${RUN}-r0-j0`,
      provider_id: job?.provider_id,
      phase: 'pending',
      requests: 2,
    });
  });
});
