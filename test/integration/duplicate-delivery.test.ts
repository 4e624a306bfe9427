import { afterEach, describe, expect, it } from 'vitest';
import { rotateKeyCaseMessage } from '../support/rotate-key-case.js';
import { configFileSchema } from '../../shared/config/index.js';
import { chunkRelevance } from '../../shared/judges/catalog/chunk-relevance.js';
import { chooseJudgeBackend } from '../../shared/scoring/judge-backend.js';
import { evaluateCaseMessage, type Judging } from '../../shared/worker/evaluate-case.js';
import { runKeys } from '../../shared/run/run-identity.js';
import { MemoryStore } from '../../shared/ports/memory-store.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import { attemptUsageSchema, caseResultSchema } from '../../shared/schema/run-records.js';
import { type ConditionalS3Server, firstOnly, startConditionalS3Server, storeOver } from '../support/conditional-s3-server.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { manifest } from '../unit/report/factories.js';

/**
 * A case message that comes back while its first delivery still runs (a
 * visibility timeout that ran out): both deliveries judge the case, one result
 * stands, and every judge call either made is in the run's records.
 */
let server: OpenAiTestServer | undefined;
let bucket: ConditionalS3Server | undefined;
afterEach(async () => {
  await server?.close();
  await bucket?.close();
  server = undefined;
  bucket = undefined;
});

const RUN_ID = 'r-0123456789abcdef';

/** Requests a judge usage entry stands for: its calls and their retries. */
const counted = (usage: { calls: number; retries: number } | undefined): number => (usage?.calls ?? 0) + (usage?.retries ?? 0);

/**
 * The run's manifest in `store`, and a judge worker over it, a new one each
 * call: each delivery on a worker of its own, with a judging (and an
 * in-memory judge cache) of its own.
 */
async function workersOn(store: ObjectStore, judge: OpenAiTestServer): Promise<() => { store: ObjectStore; judgingFor: () => Judging }> {
  await store.put(runKeys.manifest(RUN_ID), JSON.stringify(manifest(['q1'], { run_id: RUN_ID, engines: ['bm25'] })));
  const config = configFileSchema.parse({ judges: ['chunk_relevance'] });
  const environment = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: judge.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' };
  return () => {
    const judging: Judging = { backend: chooseJudgeBackend(config, environment, undefined).backend, judges: [chunkRelevance] };
    return { store, judgingFor: () => judging };
  };
}

describe('a case delivered twice', () => {
  it('keeps the first result, and the judge usage of the second delivery where the report counts it', async () => {
    // Prepare: a judge whose first verdict is "yes" and later ones "no", so the two deliveries' results differ
    let answers = 0;
    server = await startOpenAiTestServer({ oracle: () => ({ json: { rationale: 'r', rating: answers++ < 3 ? 'yes' : 'no' } }) });
    const store = new MemoryStore();
    const worker = await workersOn(store, server);
    const message = rotateKeyCaseMessage(RUN_ID);

    // Act: the first delivery, then the same message received again by another worker
    const first = await evaluateCaseMessage(worker(), message, { messageId: 'm-1', receiveCount: 1 });
    const second = await evaluateCaseMessage(worker(), message, { messageId: 'm-1', receiveCount: 2 });

    // Assess: both done, the first result kept, and the calls of both in the result and the attempt usage
    expect([first.kind, second.kind]).toEqual(['done', 'done']);
    const result = caseResultSchema.parse(
      JSON.parse(new TextDecoder().decode((await store.get(runKeys.result(RUN_ID, 'q1'))) ?? new Uint8Array())),
    );
    expect(result.engines.bm25?.['retrieval/llm_judged/chunk_relevance/ratings']).toEqual(['yes', 'yes', 'yes']);
    const attempt = attemptUsageSchema.parse(
      JSON.parse(new TextDecoder().decode((await store.get(runKeys.attemptUsage(RUN_ID, 'q1', 'm-1-2'))) ?? new Uint8Array())),
    );
    expect(counted(attempt.chunk_relevance)).toBeGreaterThan(0);
    expect(counted(result.judge_usage.chunk_relevance) + counted(attempt.chunk_relevance)).toBe(server.log.length);
  });
  it('keeps the judge usage of a delivery whose result the store refused, where the report counts it', async () => {
    // Prepare: a store that refuses the first write of the case's result, as S3 does under an outage
    server = await startOpenAiTestServer({ oracle: () => ({ json: { rationale: 'r', rating: 'yes' } }) });
    let refused = false;
    const store = new (class extends MemoryStore {
      override async put(key: string, body: Uint8Array | string, options?: { ifNoneMatch?: boolean }) {
        if (!refused && key === runKeys.result(RUN_ID, 'q1')) {
          refused = true;
          throw new Error('SlowDown: Please reduce your request rate.');
        }
        return super.put(key, body, options);
      }
    })();
    const worker = await workersOn(store, server);

    // Act: the delivery the store failed, then the case received again by another worker
    const first = await evaluateCaseMessage(worker(), rotateKeyCaseMessage(RUN_ID), { messageId: 'm-1', receiveCount: 1 });
    const second = await evaluateCaseMessage(worker(), rotateKeyCaseMessage(RUN_ID), { messageId: 'm-1', receiveCount: 2 });

    // Assess: the first failed naming the store's error, and its calls are kept beside the second's result
    expect(first).toMatchObject({ kind: 'failed', error: expect.stringContaining('SlowDown') });
    expect(second.kind).toBe('done');
    const attempt = attemptUsageSchema.parse(
      JSON.parse(new TextDecoder().decode((await store.get(runKeys.attemptUsage(RUN_ID, 'q1', 'm-1-1'))) ?? new Uint8Array())),
    );
    const result = caseResultSchema.parse(
      JSON.parse(new TextDecoder().decode((await store.get(runKeys.result(RUN_ID, 'q1'))) ?? new Uint8Array())),
    );
    expect(counted(attempt.chunk_relevance)).toBe(3);
    expect(counted(result.judge_usage.chunk_relevance) + counted(attempt.chunk_relevance)).toBe(server.log.length);
  });

  it("counts a delivery's judge calls once when S3 stored its result but the answer was lost and the SDK wrote it again", async () => {
    // Prepare: an S3 that honours If-None-Match and loses its answer to the first write of the case's result
    server = await startOpenAiTestServer({ oracle: () => ({ json: { rationale: 'r', rating: 'yes' } }) });
    bucket = await startConditionalS3Server({ loseAnswer: firstOnly((request) => request.key === runKeys.result(RUN_ID, 'q1')) });
    const store = storeOver(bucket);
    const worker = await workersOn(store, server);

    // Act
    const outcome = await evaluateCaseMessage(worker(), rotateKeyCaseMessage(RUN_ID), { messageId: 'm-1', receiveCount: 1 });

    // Assess: the result written twice and refused the second time, its calls in it and in no attempt usage besides
    expect(outcome.kind).toBe('done');
    expect(bucket.requests().filter((request) => request.method === 'PUT' && request.key === runKeys.result(RUN_ID, 'q1'))).toHaveLength(2);
    expect([...bucket.objects.keys()].filter((key) => key.includes('/attempt-usage/'))).toEqual([]);
    const result = caseResultSchema.parse(JSON.parse(bucket.objects.get(runKeys.result(RUN_ID, 'q1'))?.toString() ?? ''));
    expect(counted(result.judge_usage.chunk_relevance)).toBe(server.log.length);
  });
});
