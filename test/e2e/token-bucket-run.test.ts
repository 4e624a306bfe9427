import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../support/built-cli.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { passagesRun } from '../support/passages-run.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * `assay run` as a user runs it (the built CLI) against a judge limited by a
 * token bucket, with no rate setting: 3,000 requests a minute (50 a second),
 * a burst of 10, 50 ms an answer; past it a 429 whose `retry-after-ms` and
 * `x-ratelimit-reset-requests` are the time to the next token, as the judge
 * of issue 42 sent them (`npm run bench:judge-throughput` measures the same
 * at 600 a minute, 500 judgments). Before the governor learnt the bucket's
 * rate between its refusals, it knocked once or twice for every answer.
 */
const PER_SECOND = 50;
const JUDGMENTS = 200;

let folder: TempFolder;
let server: OpenAiTestServer;
beforeAll(async () => {
  folder = await createTempFolder();
  server = await startOpenAiTestServer({
    oracle: () => ({ json: { rationale: 'on topic', rating: 'yes' } }),
    faults: { latencyMs: 50, tokenBucket: { perMinute: PER_SECOND * 60, burst: 10, reset: 'next' } },
  });
});
afterAll(async () => {
  await server.close();
  await folder.remove();
});

describe('assay run at a token-bucket limit', () => {
  it('learns the rate the bucket grants: every judgment made once, few requests refused once it is learnt', async () => {
    // Prepare: 40 queries × 5 passages, 200 judgments: 4 s at the bucket's rate
    const args = await passagesRun(folder, JUDGMENTS / 5);

    // Act
    const outcome = await runBuiltCli(args, {
      env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' },
    });

    // Assess: every judgment answered once; the first burst and the first pace, several times too fast, cost
    // their refusals, and the second half of the requests few (a probe past the rate learnt may cost some).
    // How near the rate it goes is the benchmark's to say, and the simulated runs' (rate-governor-simulated.test.ts):
    // three test files at a time on two cores take the CPU this run's 50 requests a second need
    expect(outcome.exitCode).toBe(0);
    const answered = server.log.filter((entry) => entry.outcome === 'answer');
    expect(new Set(answered.map((entry) => JSON.stringify(entry.request.messages))).size).toBe(JUDGMENTS);
    expect(answered).toHaveLength(JUDGMENTS);
    const refused = server.log.filter((entry) => entry.status === 429);
    expect(refused.length / server.log.length).toBeLessThan(0.2);
    const secondHalf = server.log.slice(server.log.length / 2);
    expect(secondHalf.filter((entry) => entry.status === 429).length / secondHalf.length).toBeLessThan(0.1);
  }, 60_000);
});
