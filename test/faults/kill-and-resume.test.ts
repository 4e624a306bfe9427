import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readProcessStat } from '../../shared/run/process-liveness.js';
import { runBuiltCli } from '../support/built-cli.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { runCli } from '../support/run-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { until } from '../support/until.js';
import { spawnUnreaped } from '../support/unreaped-process.js';
import { answeredCalls, expectEveryCaseOnce, readRunFiles, requestsFor, writeFaultDataset } from './fault-harness.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CONCURRENCY = 4;

let server: OpenAiTestServer;
let folder: TempFolder;
const cleanups: (() => Promise<void>)[] = [];
beforeEach(async () => {
  server = await startOpenAiTestServer({ oracle: catalogOracle });
  folder = await createTempFolder();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await server.close();
  await folder.remove();
});

/** SIGKILL to every process of the group `leader` leads, as `kill -9 -PGID` sends it; a group already gone is no error. */
function killGroup(leader: number): void {
  try {
    process.kill(-leader, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

interface BuiltAssay {
  readonly child: ChildProcess;
  readonly finished: Promise<{ exitCode: number; stderr: string }>;
}

/** `assay ARGS` through the built bin, in a process of its own, as an operator's terminal runs it. */
function builtAssay(args: readonly string[], environment: Record<string, string>): BuiltAssay {
  const child = spawn(process.execPath, [join(ROOT, 'cli', 'bin.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...environment },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const finished = once(child, 'exit').then(([code]) => ({ exitCode: Number(code), stderr: stderr.join('') }));
  cleanups.push(async () => {
    child.kill('SIGKILL');
    await finished;
  });
  return { child, finished };
}

/**
 * An `assay run` of `dataset` through the built bin, killed with its process
 * group once its judging has begun, and left a zombie by a parent that does
 * not reap it; resolves to its run id.
 */
async function runKilledToZombie(datasetPath: string, store: string, environment: Record<string, string>): Promise<string> {
  server.setFaults({ slow: 1, slowMs: 30_000 });
  const args = [
    'run',
    datasetPath,
    '--judges',
    'chunk_relevance',
    '--store',
    store,
    '--out',
    join(folder.path, 'killed'),
    '--concurrency',
    String(CONCURRENCY),
  ];
  const run = await spawnUnreaped(process.execPath, [join(ROOT, 'cli', 'bin.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...environment },
  });
  cleanups.push(async () => {
    killGroup(run.pid);
    await run.release();
  });
  const firstLine = await new Promise<string>((resolve) => createInterface({ input: run.stdout }).once('line', resolve));
  const runId = /^run (r-[0-9a-f]{16})$/.exec(firstLine)?.[1] ?? '';
  await until(() => requestsFor(server, 'chunk_relevance') > 0, 30_000);
  killGroup(run.pid);
  await until(() => readProcessStat(run.pid)?.state === 'Z', 10_000);
  server.setFaults({});
  return runId;
}

describe('a run killed with SIGKILL', () => {
  it('is finished by assay resume with a whole report, paying for no judgment twice beyond those in flight', async () => {
    // Prepare: 30 cases (120 pooled pairs), each judge call taking 150 ms, an `assay run` in its own process
    const dataset = await writeFaultDataset(folder, 30);
    server.setFaults({ slow: 1, slowMs: 150 });
    const store = join(folder.path, 'store');
    const judgeEnvironment = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' };
    const child = spawn(
      process.execPath,
      [
        join(ROOT, 'cli', 'bin.js'),
        'run',
        dataset.path,
        '--judges',
        'chunk_relevance',
        '--store',
        store,
        '--out',
        join(folder.path, 'killed'),
        '--concurrency',
        String(CONCURRENCY),
      ],
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
    const status = await runCli(['status', runId ?? '', '--store', store]);
    const saved = { ...process.env };
    Object.assign(process.env, judgeEnvironment);
    const resumed = await runCli([
      'resume',
      runId ?? '',
      '--store',
      store,
      '--out',
      join(folder.path, 'resumed'),
      '--concurrency',
      String(CONCURRENCY),
    ]).finally(() => {
      process.env = saved;
    });

    // Assess: status said the run had stopped, whose process was gone, and named the command that finishes it
    expect(status.stdout).toMatch(
      new RegExp(
        `; stopped: assay run \\(process ${child.pid} on ${hostname()}\\) is gone; finish it with: assay resume ${runId} --store ${store}\n$`,
      ),
    );
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

  // A zombie's id still answers signal 0; only /proc tells it has exited.
  it.runIf(existsSync('/proc/self/stat'))(
    'is finished by assay resume when the killed process is left a zombie',
    async () => {
      // Prepare: a run killed with its process group once judging began, its node process left a zombie
      const judge = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' };
      const dataset = await writeFaultDataset(folder, 8);
      const store = join(folder.path, 'store');
      const runId = await runKilledToZombie(dataset.path, store, judge);

      // Act
      const resumed = await builtAssay(
        ['resume', runId, '--store', store, '--out', join(folder.path, 'resumed'), '--concurrency', String(CONCURRENCY)],
        judge,
      ).finished;

      // Assess: the zombie held no lease; the report is whole
      expect(resumed.stderr).not.toContain('is being finished by');
      expect(resumed.exitCode).toBe(0);
      expectEveryCaseOnce(await readRunFiles(join(folder.path, 'resumed')), dataset);
    },
    90_000,
  );

  it.runIf(existsSync('/proc/self/stat'))(
    'is finished by exactly one of two assay resume started at once after it was left a zombie; the other names the one',
    async () => {
      // Prepare: a zombie's run, as above; judgments then take 250 ms, so the first resume holds the run a while
      const judge = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' };
      const dataset = await writeFaultDataset(folder, 8);
      const store = join(folder.path, 'store');
      const runId = await runKilledToZombie(dataset.path, store, judge);
      server.setFaults({ slow: 1, slowMs: 250 });

      // Act
      const resumes = ['one', 'two'].map((name) => ({
        name,
        ...builtAssay(['resume', runId, '--store', store, '--out', join(folder.path, name), '--concurrency', '2'], judge),
      }));
      const outcomes = await Promise.all(resumes.map(async (resume) => ({ ...resume, ...(await resume.finished) })));

      // Assess: one finished it, the other was refused naming the one (process, host, since)
      const finished = outcomes.filter((outcome) => outcome.exitCode === 0);
      const refused = outcomes.filter((outcome) => outcome.exitCode === 1);
      expect(finished).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect(refused[0]?.stderr).toMatch(
        /^assay resume: run r-[0-9a-f]{16} is being finished by assay resume \(process \d+ on .+, since \d{4}-\d\d-\d\dT.+\); wait for it to write the report/,
      );
      expect(refused[0]?.stderr).toContain(
        `run ${runId} is being finished by assay resume (process ${finished[0]?.child.pid} on ${hostname()}, since `,
      );
      expectEveryCaseOnce(await readRunFiles(join(folder.path, finished[0]?.name ?? '')), dataset);
    },
    90_000,
  );

  it('cannot be resumed under an unknown id, and says so', async () => {
    const outcome = await runCli(['resume', 'r-0000000000000000', '--store', join(folder.path, 'store')]);

    expect(outcome.exitCode).toBe(2);
    expect(outcome.stderr).toBe(
      `assay resume: No run r-0000000000000000 in store ${join(folder.path, 'store')}, in-process queues; check the run id and --store\n`,
    );
  });
});

describe('a run interrupted with Ctrl-C', () => {
  it('exits 130 with a last line that names the command finishing it, and that command finishes it', async () => {
    // Prepare: 12 cases, each judge call taking 150 ms, an `assay run` in its own process
    const dataset = await writeFaultDataset(folder, 12);
    server.setFaults({ slow: 1, slowMs: 150 });
    const store = join(folder.path, 'store');
    const environment = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' };
    const args = ['run', dataset.path, '--judges', 'chunk_relevance', '--store', store, '--out', join(folder.path, 'out')];
    const run = builtAssay(args, environment);

    // Act: SIGINT once judging has begun, as Ctrl-C sends it; then the command its last line names
    await until(() => requestsFor(server, 'chunk_relevance') > 0, 30_000);
    run.child.kill('SIGINT');
    const interrupted = await run.finished;
    const lastLine = interrupted.stderr.trimEnd().split('\n').at(-1) ?? '';
    const finish = /finish it with: assay (resume r-[0-9a-f]{16} --store \S+)$/.exec(lastLine)?.[1] ?? '';
    // That command interrupted in turn, once it has judged again, names itself; then it finishes the run
    const answered = requestsFor(server, 'chunk_relevance');
    const resume = builtAssay([...finish.split(' '), '--out', join(folder.path, 'out')], environment);
    await until(() => requestsFor(server, 'chunk_relevance') > answered, 30_000);
    resume.child.kill('SIGINT');
    const resumeInterrupted = await resume.finished;
    server.setFaults({});
    const finished = await runBuiltCli([...finish.split(' '), '--out', join(folder.path, 'out')], { env: environment });

    // Assess
    expect(interrupted.exitCode).toBe(130);
    expect(lastLine).toMatch(
      new RegExp(
        `^assay: interrupted \\(SIGINT\\); what the run stored is kept: finish it with: assay resume r-[0-9a-f]{16} --store ${store}$`,
      ),
    );
    expect(resumeInterrupted.exitCode).toBe(130);
    expect(resumeInterrupted.stderr.trimEnd().split('\n').at(-1)).toBe(
      `assay: interrupted (SIGINT); what the run stored is kept: finish it with: assay ${finish}`,
    );
    expect(finished.exitCode, finished.stderr).toBe(0);
    expectEveryCaseOnce(await readRunFiles(join(folder.path, 'out')), dataset);
  }, 60_000);

  it('before its ingest claimed the run, says that nothing was judged and the same command starts it again, not a resume that would be refused', async () => {
    // Prepare: a dataset of 12,000 rows, whose ingest takes a few tenths of a second after the run has its id (its lease)
    const rows = Array.from({ length: 12_000 }, (_, index) =>
      JSON.stringify({
        request_id: `q${index}`,
        request: `item ${index}`,
        engine: 'bm25',
        retrieved_context: [{ doc_uri: `d${index}`, content: `item ${index}` }],
      }),
    );
    const dataset = await folder.write('large.jsonl', `${rows.join('\n')}\n`);
    const store = join(folder.path, 'store');
    const run = builtAssay(['run', dataset, '--store', store, '--out', join(folder.path, 'out')], {});

    // Act: SIGINT as soon as the run holds its lease, while its ingest still reads the rows
    const runs = join(store, 'runs');
    await until(() => existsSync(runs) && readdirSync(runs).some((runId) => existsSync(join(runs, runId, 'lease'))), 30_000, 5);
    run.child.kill('SIGINT');
    const interrupted = await run.finished;

    // Assess: the line says so, and indeed the run has no manifest
    const [runId = ''] = readdirSync(runs);
    expect(interrupted.exitCode).toBe(130);
    expect(interrupted.stderr.trimEnd().split('\n').at(-1)).toBe(
      'assay: interrupted (SIGINT); the run had not started judging (its ingest had not claimed it): nothing of it was judged; run the same command again',
    );
    expect(existsSync(join(runs, runId, 'manifest.json'))).toBe(false);
  }, 60_000);
});
