import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { runCli } from '../support/run-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { until } from '../support/until.js';
import { answeredCalls, expectEveryCaseOnce, readRunFiles, requestsFor, writeFaultDataset } from './fault-harness.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CONCURRENCY = 4;

let server: OpenAiTestServer;
let folder: TempFolder;
const children: ChildProcess[] = [];
beforeEach(async () => {
  server = await startOpenAiTestServer({ oracle: catalogOracle });
  folder = await createTempFolder();
});
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await server.close();
  await folder.remove();
});

/** `assay ARGS` in a process of its own, as a second operator's terminal would run it. */
function assayProcess(
  args: readonly string[],
  environment: Record<string, string>,
): { child: ChildProcessByStdio<null, Readable, Readable>; exited: Promise<number> } {
  const child = spawn(process.execPath, [join(ROOT, 'cli', 'bin.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stderr.resume();
  const exited = once(child, 'exit').then(([code]) => Number(code));
  return { child, exited };
}

async function withJudgeEnvironment<T>(environment: Record<string, string>, work: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  Object.assign(process.env, environment);
  try {
    return await work();
  } finally {
    process.env = saved;
  }
}

describe('operators running things at once', () => {
  it('a second assay resume of a run is refused while the first finishes it, and resuming an older run leaves latest.json on the newer one', async () => {
    // Prepare: run A is killed once ingested, before any judgment is answered
    const judge = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' };
    const store = join(folder.path, 'store');
    const older = await writeFaultDataset(folder, 8);
    server.setFaults({ slow: 1, slowMs: 30_000 });
    const killed = assayProcess(
      [
        'run',
        older.path,
        '--judges',
        'chunk_relevance',
        '--store',
        store,
        '--out',
        join(folder.path, 'killed'),
        '--concurrency',
        String(CONCURRENCY),
      ],
      judge,
    );
    const firstLine = await new Promise<string>((resolve) => createInterface({ input: killed.child.stdout }).once('line', resolve));
    const runA = /^run (r-[0-9a-f]{16})$/.exec(firstLine)?.[1] ?? '';
    await until(() => requestsFor(server, 'chunk_relevance') > 0, 20_000);
    killed.child.kill('SIGKILL');
    await killed.exited;
    // ... then run B of the same suite is reported: the newest run
    server.setFaults({});
    const newer = await folder.write(
      'newer.jsonl',
      `${JSON.stringify({ request_id: 'n1', request: 'What is new?', response: 'Nothing.', retrieved_context: [{ doc_uri: 'n-d1', content: 'nothing new' }] })}\n`,
    );
    const runB = await withJudgeEnvironment(judge, () =>
      runCli(['run', newer, '--judges', 'chunk_relevance', '--store', store, '--out', join(folder.path, 'newer')]),
    );
    expect(runB.exitCode).toBe(0);
    const runBId = /^run (r-[0-9a-f]{16})$/m.exec(runB.stdout)?.[1];

    // Act: one operator resumes A (judgments take 100 ms); while it works, a second resumes A too
    server.setFaults({ slow: 1, slowMs: 100 });
    const before = requestsFor(server, 'chunk_relevance');
    // Every request of the killed run arrived before it died, so before this: a request it sent as it was
    // killed may still have been answered into its closed connection (TCP cannot tell), but is logged earlier.
    const resumeStart = server.log.length;
    const first = assayProcess(
      ['resume', runA, '--store', store, '--out', join(folder.path, 'first'), '--concurrency', String(CONCURRENCY)],
      judge,
    );
    await until(() => requestsFor(server, 'chunk_relevance') > before, 20_000);
    const second = await withJudgeEnvironment(judge, () =>
      runCli(['resume', runA, '--store', store, '--out', join(folder.path, 'second'), '--concurrency', String(CONCURRENCY)]),
    );
    const firstExit = await first.exited;

    // Assess: the second is refused at once, naming who holds the run; the first judges each pair once
    expect(second.exitCode).toBe(1);
    expect(second.stderr).toMatch(
      new RegExp(
        `^assay resume: run ${runA} is being finished by assay resume \\(process \\d+ on .+, since .+\\); wait for it to write the report \\(assay status ${runA} --store ${store} shows how far it has come\\)`,
      ),
    );
    expect(firstExit).toBe(0);
    expect(answeredCalls(server, 'chunk_relevance', resumeStart)).toBe(older.uniquePairs);
    expectEveryCaseOnce(await readRunFiles(join(folder.path, 'first')), older);
    // ... and the status command the refusal named works on this store
    const status = await runCli(['status', runA, '--store', store]);
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toContain(runA);
    // latest.json still names B: A is older in run time, however late its report
    const latest = JSON.parse(await readFile(join(store, 'reports', 'default', 'latest.json'), 'utf8')) as { run_id: string };
    expect(latest.run_id).toBe(runBId);
    const reportA = JSON.parse(await readFile(join(folder.path, 'first', 'report.json'), 'utf8')) as { comparison?: unknown };
    expect(reportA.comparison).toBeUndefined();
  }, 60_000);
});
