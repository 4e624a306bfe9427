import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBatchState } from '../../shared/batch-judging/batch-state.js';
import { LocalFolderStore } from '../../shared/ports/local-folder-store.js';
import { reportSchema, type Report } from '../../shared/schema/report.js';
import { BUILT_BIN, runBuiltCli } from '../support/built-cli.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { REPOSITORY_ROOT } from '../support/markdown.js';
import { startOpenAiBatchServer, type OpenAiBatchServer } from '../support/openai-batch-server.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { until } from '../support/until.js';

/**
 * A batch-judged run through the built bin when its jobs or its process do
 * not go as planned: killed while it waits, a job that expires half done, a
 * job that fails validation, a run detached after submitting. A case is
 * never lost, and no request is ever judged twice.
 */
const DATASET = join(REPOSITORY_ROOT, 'examples', 'datasets', 'search-assistant.jsonl');
const JUDGES = 'chunk_relevance,correctness';

let folder: TempFolder;
let server: OpenAiBatchServer;
beforeEach(async () => {
  folder = await createTempFolder();
  server = await startOpenAiBatchServer({ oracle: catalogOracle, progress: 'manual' });
});
afterEach(async () => {
  await server.close();
  await folder.remove();
});

const environment = () => ({ OPENAI_API_KEY: 'sk-batch-faults', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' });
const store = () => join(folder.path, 'store');
const out = () => join(folder.path, 'out');

async function config(): Promise<string> {
  return folder.write('batch.json', JSON.stringify({ judge: { batch: { poll_seconds: 0.05 } } }));
}

async function assay(args: readonly string[]) {
  return runBuiltCli(args, { env: environment() });
}

async function report(): Promise<Report> {
  return reportSchema.parse(JSON.parse(await readFile(join(out(), 'report.json'), 'utf8')));
}

const everyRequestJudgedOnce = () => [...server.judged.values()].every((times) => times === 1);

describe('batch judging when things go wrong', () => {
  it('creates no second job when killed while waiting, and assay resume collects the job and reports every case', async () => {
    // Prepare: the run, in a process group of its own, waits on a job the server does not move
    const child = spawn(
      process.execPath,
      [BUILT_BIN, 'run', DATASET, '--judges', JUDGES, '--config', await config(), '--store', store(), '--out', out()],
      {
        env: { ...process.env, ...environment() },
        detached: true,
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    const exited = once(child, 'exit');
    const runId =
      /^run (r-[0-9a-f]{16})$/.exec(
        await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve)),
      )?.[1] ?? '';
    await until(() => server.batches.size === 1, 30_000);
    await until(() => server.log.filter((call) => call.method === 'GET' && call.path.startsWith('/v1/batches/')).length >= 2, 30_000);

    // Act: kill -9 of its process group; the job finishes while nothing runs; then resume
    process.kill(-(child.pid ?? 0), 'SIGKILL');
    await exited;
    server.settle();
    const resumed = await assay(['resume', runId, '--store', store(), '--out', out()]);

    // Assess
    expect(resumed.exitCode).toBe(0);
    expect(server.batches.size).toBe(1);
    expect((await report()).cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    expect(everyRequestJudgedOnce()).toBe(true);
  }, 90_000);

  it('keeps the lines an expired job answered, sends the rest once more in a new job, and judges nothing twice', async () => {
    // Prepare: the first job expires with 10 lines answered
    server.setFaults({ expireAfterLines: 10 });
    const stepping = setInterval(() => {
      server.advance();
      if (server.batches.size > 1) server.setFaults({});
    }, 20);

    // Act
    const run = await assay(['run', DATASET, '--judges', JUDGES, '--config', await config(), '--store', store(), '--out', out()]).finally(
      () => clearInterval(stepping),
    );

    // Assess
    expect(run.exitCode).toBe(0);
    const [first, second] = [...server.batches.values()].map((batch) => batch.toObject());
    expect(first).toMatchObject({ status: 'expired', request_counts: { completed: 10 } });
    expect(second).toMatchObject({ status: 'completed' });
    expect(second?.request_counts?.total).toBe((first?.request_counts?.total ?? 0) - 10);
    expect(everyRequestJudgedOnce()).toBe(true);
    expect((await report()).cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    expect(run.stderr).toMatch(/batch_test1 expired/);
  }, 90_000);

  it('creates one job when the answer to its create was lost after the provider made it, and judges nothing twice', async () => {
    // Prepare: the provider creates the job, then the connection is cut before its answer
    server.setFaults({ httpFaults: [{ route: 'POST batches', cutAfterWork: true, times: 1 }] });
    const stepping = setInterval(() => server.advance(), 20);

    // Act
    const run = await assay(['run', DATASET, '--judges', JUDGES, '--config', await config(), '--store', store(), '--out', out()]).finally(
      () => clearInterval(stepping),
    );

    // Assess: the create not sent again; the job it made found by its key, and no second one made or paid for
    expect(run.exitCode, run.stderr).toBe(0);
    expect(server.log.filter((call) => call.method === 'POST' && call.path === '/v1/batches')).toHaveLength(1);
    expect(server.batches.size).toBe(1);
    expect(everyRequestJudgedOnce()).toBe(true);
    expect((await report()).cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
  }, 90_000);

  it("exits 1 naming the provider's errors when a job fails validation; the run stays resumable", async () => {
    // Prepare
    server.setFaults({
      validationErrors: [{ code: 'invalid_request', message: 'The model judge-model does not support batch requests.', line: 3 }],
    });
    const stepping = setInterval(() => server.advance(), 20);

    // Act
    const failed = await assay(['run', DATASET, '--judges', JUDGES, '--config', await config(), '--store', store(), '--out', out()]);
    server.setFaults({});
    const runId = /^run (r-[0-9a-f]{16})$/m.exec(failed.stdout)?.[1] ?? '';
    const resumed = await assay(['resume', runId, '--store', store(), '--out', out()]).finally(() => clearInterval(stepping));

    // Assess
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toContain(
      'batch job batch_test1 failed validation: line 3: invalid_request: The model judge-model does not support batch requests.; nothing of it ran or was paid for',
    );
    expect(failed.stderr).toContain(`assay resume ${runId} --store ${store()} submits its requests again`);
    expect(resumed.exitCode).toBe(0);
    expect(server.batches.size).toBe(2);
    expect((await report()).cases.evaluated).toBe(12);
  }, 90_000);

  it('--detach returns once the job is submitted; status shows the job as the provider has it; resume finishes the run', async () => {
    // Act
    const detached = await assay([
      'run',
      DATASET,
      '--judges',
      JUDGES,
      '--config',
      await config(),
      '--store',
      store(),
      '--out',
      out(),
      '--batch',
      '--detach',
    ]);
    const runId = /^run (r-[0-9a-f]{16})$/m.exec(detached.stdout)?.[1] ?? '';
    server.advance();
    server.advance();
    const status = await assay(['status', runId, '--store', store()]);
    const state = await readBatchState(new LocalFolderStore(store()), runId);
    server.settle();
    const resumed = await assay(['resume', runId, '--store', store(), '--out', out()]);

    // Assess
    expect(detached.exitCode).toBe(0);
    expect(detached.stdout).toContain(
      `batch jobs submitted: batch_test1\nthe run waits for them; finish it with: assay resume ${runId} --store ${store()}\n`,
    );
    // The detached run's process let go of it: status says nothing collects the answers, and the command that does.
    expect(status.stdout).toMatch(
      new RegExp(
        `waiting for batch jobs, and nothing collects their answers: assay run \\(process \\d+ on .+\\) let go of it before the report; finish it with: assay resume ${runId} --store ${store()}\\n` +
          'batch round 0; 12 cases waiting for their answers\\n {2}batch job batch_test1 \\(round 0, \\d+ requests\\): in_progress, \\d+\\/\\d+ done, 0 failed\\n$',
      ),
    );
    expect(state.jobs).toHaveLength(1);
    expect(resumed.stderr).toContain(`assay: run ${runId}: 0 unfinished cases sent again; 12 cases wait on the run's batch jobs\n`);
    expect(
      resumed.stderr
        .split('\n')
        .filter((line) => line.startsWith('cases '))
        .at(-1),
    ).toMatch(/^cases 12\/12 \| /);
    expect(resumed.exitCode).toBe(0);
    expect(server.batches.size).toBe(1);
    expect((await report()).cases.evaluated).toBe(12);
  }, 90_000);
});
