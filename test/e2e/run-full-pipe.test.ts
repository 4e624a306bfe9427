import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// Loaded here, as the built CLI has it by the time it starts a run: what is timed below is the run, not the test's TypeScript transform.
import '../../cli/commands/run.js';
import { runCli } from '../support/run-cli.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { passagesRun } from '../support/passages-run.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * `assay run` fills every judge slot from its first call: with a judge that
 * takes 500 ms and `--concurrency 16`, the first call leaves soon after the
 * command's entry and 16 are in flight before the first answer is back; no
 * call waits for another to find out which output mode the server takes.
 */
let folder: TempFolder;
let server: OpenAiTestServer;
beforeAll(async () => {
  folder = await createTempFolder();
  server = await startOpenAiTestServer({ oracle: () => ({ json: { rationale: 'on topic', rating: 'yes' } }), faults: { latencyMs: 500 } });
});
afterAll(async () => {
  await server.close();
  await folder.remove();
});

describe('assay run with a slow judge', () => {
  it('sends its first judge call within 1 s of the command and has 16 in flight before the first answer', async () => {
    // Prepare: 8 queries × 5 passages, 40 judgments
    const args = await passagesRun(folder, 8);
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' });

    // Act
    const startedAt = performance.now();
    const outcome = await runCli(args).finally(() => {
      process.env = saved;
    });

    // Assess
    expect(outcome.exitCode).toBe(0);
    const first = server.log[0];
    expect((first?.receivedAt ?? Number.POSITIVE_INFINITY) - startedAt).toBeLessThan(1_000);
    const firstAnswer = Math.min(...server.log.map((entry) => entry.answeredAt ?? Number.POSITIVE_INFINITY));
    expect(server.log.filter((entry) => entry.receivedAt < firstAnswer)).toHaveLength(16);
    expect(server.log).toHaveLength(40);
  });
});
