import { afterEach, describe, expect, it } from 'vitest';
import { rotateKeyCaseMessage } from '../support/rotate-key-case.js';
import { configFileSchema } from '../../shared/config/index.js';
import { chunkRelevance } from '../../shared/judges/catalog/chunk-relevance.js';
import { chooseJudgeBackend } from '../../shared/scoring/judge-backend.js';
import { evaluateCaseMessage, type Judging } from '../../shared/worker/evaluate-case.js';
import { deferTo, MAX_RATE_LIMIT_DEFERRALS } from '../../shared/worker/rate-limit-deferral.js';
import { runKeys } from '../../shared/run/run-identity.js';
import { InProcessQueue } from '../../shared/ports/in-process-queue.js';
import { MemoryStore } from '../../shared/ports/memory-store.js';
import { caseMessageSchema } from '../../shared/schema/pipeline-messages.js';
import { judgeUsageSchema } from '../../shared/schema/run-records.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { steppedClock } from '../support/stepped-queue.js';
import { manifest } from '../unit/report/factories.js';

/**
 * A case whose judgments the judge server's rate limit holds past their
 * deadline: the judge worker sends it to the cases queue again as a new,
 * delayed message, whose receive count starts over, instead of failing the
 * delivery and letting the count run out towards the dead-letter queue.
 */
let server: OpenAiTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const RUN_ID = 'r-0123456789abcdef';

async function heldCase(deferrals: number | undefined) {
  // Prepare: a quota of 1 request per 5 s, and judgments that may take 300 ms: the second and third chunks wait past their deadline
  server = await startOpenAiTestServer({
    oracle: () => ({ json: { rationale: 'r', rating: 'yes' } }),
    faults: { requestLimit: { requests: 1, windowMs: 5_000 } },
  });
  const store = new MemoryStore();
  await store.put(runKeys.manifest(RUN_ID), JSON.stringify(manifest(['q1'], { run_id: RUN_ID, engines: ['bm25'] })));
  const config = configFileSchema.parse({ judges: ['chunk_relevance'], judge: { call_deadline_ms: 300 } });
  const { backend } = chooseJudgeBackend(
    config,
    { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' },
    undefined,
  );
  const judging: Judging = { backend, judges: [chunkRelevance] };
  const time = steppedClock(0);
  const cases = new InProcessQueue('assay-cases', { visibilityTimeoutSeconds: 2, clock: time.clock });
  const message = rotateKeyCaseMessage(RUN_ID, deferrals === undefined ? {} : { deferrals });

  // Act: the third delivery of the message, the last before the dead-letter queue
  const outcome = await evaluateCaseMessage({ store, judgingFor: () => judging, defer: deferTo(cases) }, message, {
    messageId: 'm-1',
    receiveCount: 3,
  });
  return { outcome, store, cases, advance: time.advance };
}

describe('a case held by the judge rate limit', () => {
  it('is sent again as a new message, delayed 2 s, that comes back with a fresh receive count', async () => {
    const { outcome, store, cases, advance } = await heldCase(undefined);

    // Assess: the delivery is over, the case is back on the queue as a new message
    expect(outcome).toMatchObject({ kind: 'deferred', caseId: 'q1', delaySeconds: 2 });
    expect(await cases.receive({ maxMessages: 10, waitSeconds: 0 })).toEqual([]);
    advance(2_000);
    const [redelivered] = await cases.receive({ maxMessages: 10, waitSeconds: 0 });
    expect(redelivered?.receiveCount).toBe(1);
    expect(caseMessageSchema.parse(JSON.parse(redelivered?.body ?? '{}'))).toMatchObject({ case_id: 'q1', deferrals: 1 });
    // The calls it made and the refusals are kept for the report
    const usageKeys: string[] = [];
    for await (const key of store.list(runKeys.attemptUsagePrefix(RUN_ID))) usageKeys.push(key);
    const [usageKey] = usageKeys;
    const usage = judgeUsageSchema.parse(
      (JSON.parse(new TextDecoder().decode((await store.get(usageKey ?? '')) ?? new Uint8Array())) as Record<string, unknown>)
        .chunk_relevance,
    );
    expect(usage.rate_limited).toBeGreaterThan(0);
    expect(usage.calls + usage.retries).toBe(server?.log.length);
  });

  it('goes back through the queue as any transient failure once it has been deferred as often as it may be', async () => {
    const { outcome, cases } = await heldCase(MAX_RATE_LIMIT_DEFERRALS);

    expect(outcome).toMatchObject({ kind: 'retry', caseId: 'q1' });
    expect(cases.size).toBe(0);
  });
});
