import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { runCli } from '../support/run-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { until } from '../support/until.js';
import { answeredCalls, expectEveryCaseOnce, readRunFiles, writeFaultDataset } from './fault-harness.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CONCURRENCY = 4;

let server: OpenAiTestServer;
let folder: TempFolder;
beforeEach(async () => {
  server = await startOpenAiTestServer({ oracle: catalogOracle });
  folder = await createTempFolder();
});
afterEach(async () => {
  await server.close();
  await folder.remove();
});


describe('a run killed with SIGKILL', () => {
  it('is finished by assay resume with a whole report, paying for no judgment twice beyond those in flight', async () => {
    // Prepare: 30 cases (120 pooled pairs), each judge call taking 150 ms, an `assay run` in its own process
    const dataset = await writeFaultDataset(folder, 30);
    server.setFaults({ slow: 1, slowMs: 150 });
    const store = join(folder.path, 'store');
    const judgeEnvironment = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' };
    const child = spawn(
      process.execPath,
      [join(ROOT, 'cli', 'bin.js'), 'run', dataset.path, '--judges', 'chunk_relevance', '--store', store, '--out', join(folder.path, 'killed'), '--concurrency', String(CONCURRENCY)],
      { cwd: ROOT, env: { ...process.env, ...judgeEnvironment }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = once(child, 'exit');
    const firstLine = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    const runId = /^run (r-[0-9a-f]{16})$/.exec(firstLine)?.[1];
    expect(runId).toBeDefined();

    // Act: kill it part of the way through (mid-batch), then resume it from the store
    await until(() => answeredCalls(server, 'chunk_relevance') >= 50, 60_000);
    child.kill('SIGKILL');
    await exited;
    const answeredBeforeResume = answeredCalls(server, 'chunk_relevance');
    const saved = { ...process.env };
    Object.assign(process.env, judgeEnvironment);
    const resumed = await runCli(['resume', runId ?? '', '--store', store, '--out', join(folder.path, 'resumed'), '--concurrency', String(CONCURRENCY)]).finally(() => {
      process.env = saved;
    });

    // Assess: a whole report; the judgments paid before the kill came from the cache
    expect(resumed.exitCode).toBe(0);
    expect(resumed.stderr).toContain(`run ${runId}: `);
    const files = await readRunFiles(join(folder.path, 'resumed'));
    expectEveryCaseOnce(files, dataset);
    expect(files.report.cases.evaluated).toBe(30);
    expect(answeredBeforeResume).toBeLessThan(dataset.uniquePairs);
    expect(answeredCalls(server, 'chunk_relevance')).toBeLessThanOrEqual(dataset.uniquePairs + CONCURRENCY);
    expect(answeredCalls(server, 'chunk_relevance') - answeredBeforeResume).toBeLessThan(dataset.uniquePairs);
  }, 120_000);

  it('cannot be resumed under an unknown id, and says so', async () => {
    const outcome = await runCli(['resume', 'r-0000000000000000', '--store', join(folder.path, 'store')]);

    expect(outcome.exitCode).toBe(2);
    expect(outcome.stderr).toBe(`assay resume: No run r-0000000000000000 in store ${join(folder.path, 'store')}, in-process queues; check the run id and --store\n`);
  });
});
