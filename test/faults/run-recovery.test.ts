import type { SpawnedProcess } from '../support/small-spawner.js';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSchema } from '../../shared/schema/report.js';
import { runBuiltCli } from '../support/built-cli.js';
import { closedPort } from '../support/closed-port.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { REPOSITORY_ROOT } from '../support/markdown.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { until } from '../support/until.js';

/**
 * Recovering a run whose judge server was down, through the built bin: the
 * run's failed deliveries paid for calls that all failed, and the recovery
 * answers every judgment from the judge cache, so the report's judge usage
 * holds failed calls and no successful one. A complete recovery exits 0;
 * `assay redrive` of a run that was killed sends nothing and names `assay
 * resume`, and `assay resume` of a run whose cases failed names `assay
 * redrive`.
 */
const DATASET = join(REPOSITORY_ROOT, 'examples', 'datasets', 'search-assistant.jsonl');
const JUDGES = 'chunk_relevance';
const KEY = 'sk-run-recovery-7Hq2Lm9Xw4';

let folder: TempFolder;
let server: OpenAiTestServer;
/** Nothing listens there: every call to it is refused at once. */
let downUrl: string;
beforeAll(async () => {
  folder = await createTempFolder();
  server = await startOpenAiTestServer({ oracle: catalogOracle });
  downUrl = `http://127.0.0.1:${await closedPort()}/v1`;
  // A first run fills the judge cache of the store: every later judgment at this server is a cache hit.
  const filled = await assay(['run', DATASET, '--judges', JUDGES, '--out', join(folder.path, 'first')], server.baseUrl);
  expect(filled.exitCode).toBe(0);
}, 60_000);
afterAll(async () => {
  await server.close();
  await folder.remove();
});

const store = () => join(folder.path, 'store');

/** `assay ARGS... --store S` through the built bin, judging at `baseUrl`. */
function assay(args: readonly string[], baseUrl: string, started?: (child: SpawnedProcess) => void) {
  return runBuiltCli([...args, '--store', store()], {
    env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' },
    ...(started === undefined ? {} : { started }),
  });
}

const runIdOf = (stdout: string) => /^run (r-[0-9a-f]{16})$/m.exec(stdout)?.[1] ?? '';
/** The last line on stderr: the one that says why a command failed. */
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';
const reportIn = async (out: string) => reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));

describe('a run made while the judge server was down', () => {
  it('is recovered by assay redrive, which exits 0 though every call paid before had failed; resume names redrive', async () => {
    // Prepare: a run without the cache while nothing answers at the judge URL: every case fails
    const failed = await assay(['run', DATASET, '--judges', JUDGES, '--no-cache', '--out', join(folder.path, 'failed')], downUrl);
    const runId = runIdOf(failed.stdout);
    expect(failed.exitCode).toBe(1);

    // Act: resume (no case is unfinished), then redrive with the server up
    const resumed = await assay(['resume', runId, '--out', join(folder.path, 'resumed')], server.baseUrl);
    const out = join(folder.path, 'redriven');
    const redriven = await assay(['redrive', runId, '--out', out], server.baseUrl);

    // Assess: redrive brings every case back and passes; resume said the failed cases are redrive's
    expect(redriven.stderr).toContain('assay: 12 failed cases sent again: ');
    expect(redriven.stderr).not.toMatch(/^assay redrive: /m);
    expect(redriven.exitCode).toBe(0);
    const report = await reportIn(out);
    expect(report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    const usage = report.judges[JUDGES];
    expect(usage?.errors).toBeGreaterThan(0);
    expect(usage?.errors).toBeLessThanOrEqual((usage?.calls ?? 0) + (usage?.cache_hits ?? 0));
    expect(resumed.exitCode).toBe(1);
    expect(resumed.stderr).toContain(
      `assay: run ${runId}: 0 unfinished cases sent again; the 12 failed cases stay failed (assay redrive ${runId} --store ${store()} sends them through the judges again)\n`,
    );
  }, 60_000);

  it('killed before its cases ended, is refused by assay redrive, naming assay resume, which finishes it and exits 0', async () => {
    // Prepare: the same run, killed once its first deliveries have failed (each case waits 2 s before its next)
    let child: SpawnedProcess | undefined;
    let runId = '';
    const killed = assay(['run', DATASET, '--judges', JUDGES, '--no-cache', '--out', join(folder.path, 'killed')], downUrl, (started) => {
      child = started;
      if (started.stdout !== null) createInterface({ input: started.stdout }).once('line', (line) => (runId = runIdOf(line)));
    });
    await until(() => runId !== '' && existsSync(join(store(), 'runs', runId, 'attempt-usage')), 30_000, 50);
    child?.kill('SIGKILL');
    await killed;

    // Act
    const startedAt = Date.now();
    const redriven = await assay(['redrive', runId, '--out', join(folder.path, 'refused')], server.baseUrl, (started) => {
      setTimeout(() => started.kill('SIGKILL'), 20_000).unref();
    });
    const redriveSeconds = (Date.now() - startedAt) / 1000;
    const out = join(folder.path, 'finished');
    const resumed = await assay(['resume', runId, '--out', out], server.baseUrl);

    // Assess: redrive sends nothing and names the command that finishes the run; resume finishes it
    expect(redriven.exitCode).toBe(1);
    expect(lastLine(redriven.stderr)).toBe(
      `assay redrive: run ${runId} is unfinished: 12 of its 12 cases have neither a result nor a failure, and redrive sends only failed cases; ` +
        `assay resume ${runId} --store ${store()} finishes it`,
    );
    expect(redriveSeconds).toBeLessThan(10);
    expect(resumed.stderr).toContain(`assay: run ${runId}: 12 unfinished cases sent again\n`);
    expect(resumed.stderr).not.toMatch(/^assay resume: /m);
    expect(resumed.exitCode).toBe(0);
    expect((await reportIn(out)).cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
  }, 60_000);
});
