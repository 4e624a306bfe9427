import { afterEach, describe, expect, it } from 'vitest';
import { chunkRelevance } from '../../shared/judges/catalog/chunk-relevance.js';
import { configFileSchema } from '../../shared/config/index.js';
import { chooseJudgeBackend } from '../../shared/scoring/judge-backend.js';
import type { JudgeBackend } from '../../shared/scoring/run-judges.js';
import { startOpenAiTestServer, type FaultPlan, type OpenAiTestServer } from '../support/openai-test-server.js';

/**
 * The rate governor of a process through the judge client, against the test
 * judge server. One process, two runs' judge backends (two configs, as
 * `assay run` builds for its own run and for another run's cases at a
 * shared endpoint), one judge server and model with a quota of 10 requests
 * a second: the backends share the server's rate governor, so together they
 * keep to the rate each was given, not twice it. And a server that refuses
 * at random, as an overloaded gateway does: the refusals cost their waits,
 * not a collapse.
 */
let server: OpenAiTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function backendFor(baseUrl: string, judge: object): JudgeBackend {
  const config = configFileSchema.parse({ judge: { concurrency: 8, rate_limit: { requests_per_minute: 600 }, ...judge } });
  return chooseJudgeBackend(config, { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' }, undefined)
    .backend;
}

describe('the rate governor of a process', () => {
  it('paces the judges of every backend that calls one server and model together, so the quota is never passed', async () => {
    // Prepare: two configs that differ elsewhere (the answer length) but call the same server and model
    server = await startOpenAiTestServer({
      oracle: () => ({ json: { rationale: 'r', rating: 'yes' } }),
      faults: { latencyMs: 20, requestLimit: { requests: 10, windowMs: 1_000 } },
    });
    const backends = [backendFor(server.baseUrl, { max_tokens: 512 }), backendFor(server.baseUrl, { max_tokens: 256 })];

    // Act: 10 judgments through each, all at once
    const outcomes = await Promise.all(
      backends.flatMap((backend, which) =>
        Array.from({ length: 10 }, (_, index) =>
          backend.kind === 'llm'
            ? backend.service.judge(chunkRelevance, { request: 'q', chunk: `passage ${which}-${index}` })
            : Promise.reject(new Error('an LLM backend was expected')),
        ),
      ),
    );

    // Assess: 20 requests at 600 a minute between them (paced at 588), spread over about 2 s; at most one refused
    // (the process's first request can leave late, while fetch loads its HTTP client); apart, they would be refused by the half
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(server.log.filter((entry) => entry.status === 429).length).toBeLessThanOrEqual(1);
    const arrivals = server.log.map((entry) => entry.receivedAt).sort((left, right) => left - right);
    expect((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThan(19 * 100);
    // One pace for both: no second holds more than the quota's 10 (and the one early request), where two
    // streams side by side would put about 20 in each second. Counted over windows, not gaps between
    // neighbours, since a pace that a busy machine delays makes up its lost time with closer requests.
    const mostInOneSecond = Math.max(
      ...arrivals.map((start) => arrivals.filter((arrival) => arrival >= start && arrival < start + 1_000).length),
    );
    expect(mostInOneSecond).toBeLessThanOrEqual(11);
  });
});

describe('the rate governor at a server that refuses at random', () => {
  /** 200 judgments at once through a backend of concurrency 8 against a judge with these faults: how long they took, and how many came out right. */
  async function judgments(faults: FaultPlan): Promise<{ seconds: number; ok: number; refused: number }> {
    server = await startOpenAiTestServer({ oracle: () => ({ json: { rationale: 'r', rating: 'yes' } }), faults });
    const backend = backendFor(server.baseUrl, { rate_limit: undefined, max_retries: 10 });
    if (backend.kind !== 'llm') throw new Error('an LLM backend was expected');
    const started = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, index) => backend.service.judge(chunkRelevance, { request: 'q', chunk: `passage ${index}` })),
    );
    const seconds = (performance.now() - started) / 1000;
    const refused = server.log.filter((entry) => entry.status === 429).length;
    await server.close();
    return { seconds, ok: outcomes.filter((outcome) => outcome.ok).length, refused };
  }

  it('costs 20% of 429s without quota headers (and 5% of 500s) no more than the waits they ask: it does not slow to a crawl', async () => {
    // Prepare: the openai SDK loaded, and the same faults all as 500s, which the SDK retries after the 50 ms
    // asked each on its own: the yardstick of refusals that stop no one but themselves
    await judgments({});
    const waitsOnly = await judgments({ serverError: 0.25, retryAfterMs: 50, seed: 3 });

    // Act
    const refusing = await judgments({ rateLimit: 0.2, serverError: 0.05, retryAfterMs: 50, seed: 3 });

    // Assess: every judgment made; pacing at 90% of what was accepted at each refusal made them outlast the test's 30 s
    expect({ ok: refusing.ok, refusedSome: refusing.refused > 20 }).toEqual({ ok: 200, refusedSome: true });
    expect(refusing.seconds).toBeLessThan(1.5 * waitsOnly.seconds);
  });
});
