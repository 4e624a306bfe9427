import { execFile } from 'node:child_process';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { reportSchema } from '../../shared/schema/report.js';
import { closedPort } from '../support/closed-port.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { runCli } from '../support/run-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

const ROOT = join(import.meta.dirname, '..', '..');
const DATASET = join(ROOT, 'examples', 'datasets', 'search-assistant.jsonl');

let folder: TempFolder;
let server: OpenAiTestServer;
beforeEach(async () => {
  folder = await createTempFolder();
  server = await startOpenAiTestServer({ oracle: catalogOracle });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server.close();
  await folder.remove();
});

/** The last line on stderr: the one that says why the command failed. */
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';

describe('assay run exit status', () => {
  it('exits 1 when no row of the dataset is valid, naming the first error and where all of them are', async () => {
    // Prepare: two rows, neither with a request
    vi.stubEnv('OPENAI_API_KEY', '');
    const dataset = await folder.write('bad-rows.jsonl', '{"response": "an answer without a question"}\n{"engine": "bm25"}\n');
    const store = join(folder.path, 'store');

    // Act
    const result = await runCli(['run', dataset, '--store', store, '--out', join(folder.path, 'out')]);

    // Assess
    expect(result.exitCode).toBe(1);
    const message = lastLine(result.stderr);
    expect(message).toMatch(
      /^assay run: no case to evaluate: no row of datasets\/default\/bad-rows\.jsonl is valid \(2 input errors; the first: datasets\/default\/bad-rows\.jsonl:1: the row has no request: .* \(fix: .*\)\); every input error is in (.*)$/,
    );
    const errorsFile = /every input error is in (.*)$/.exec(message)?.[1] ?? '';
    expect(errorsFile).toMatch(new RegExp(`^${store}/runs/r-[0-9a-f]{16}/input-errors\\.jsonl$`));
    await expect(access(errorsFile)).resolves.toBeUndefined();
  });

  it('exits 1 when the judge server refuses the key, without calling it again for every judgment', async () => {
    // Prepare: a server that answers every request 401
    server.setFaults({ echoKey: { status: 401, form: 'whole' } });
    vi.stubEnv('OPENAI_API_KEY', 'sk-exit-status-Hn4Kd8Lq2Zr6');
    vi.stubEnv('OPENAI_BASE_URL', server.baseUrl);
    vi.stubEnv('ASSAY_JUDGE_MODEL', 'judge-model');

    // Act
    const args = [
      '--judges',
      'chunk_relevance,correctness',
      '--concurrency',
      '2',
      '--store',
      join(folder.path, 'store'),
      '--out',
      join(folder.path, 'out'),
    ];
    const result = await runCli(['run', DATASET, ...args]);

    // Assess: at most the calls in flight when the first refusal came back reach the server
    expect(result.exitCode).toBe(1);
    expect(lastLine(result.stderr)).toMatch(
      /^assay run: every judge call failed \((\d+) of \1\); the first: .*the judge server refused the credentials \(HTTP 401: Incorrect API key provided: \[redacted\]\. .*\); check OPENAI_API_KEY and OPENAI_BASE_URL$/,
    );
    expect(server.log.length).toBeGreaterThan(0);
    expect(server.log.length).toBeLessThanOrEqual(2);
  });

  it('exits 1 within seconds when nothing listens at the judge base URL, naming the URL; so does assay resume of that run, whatever --max-failed', async () => {
    // Prepare: a port just bound and closed; the default retries alone would take minutes a case
    const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
    vi.stubEnv('OPENAI_API_KEY', 'sk-exit-status-Hn4Kd8Lq2Zr6');
    vi.stubEnv('OPENAI_BASE_URL', baseUrl);
    vi.stubEnv('ASSAY_JUDGE_MODEL', 'judge-model');
    const startedAt = Date.now();

    // Act
    const args = ['--judges', 'chunk_relevance,correctness', '--store', join(folder.path, 'store'), '--out', join(folder.path, 'out')];
    const result = await runCli(['run', DATASET, ...args]);

    // Assess
    expect(result.exitCode).toBe(1);
    const url = baseUrl.replaceAll('.', '\\.').replaceAll('/', '\\/');
    expect(lastLine(result.stderr)).toMatch(
      new RegExp(
        `^assay run: no case could be evaluated \\((\\d+) failed, 0 missing\\); the first failure, q\\d+: .*cannot reach the judge server at ${url}: the connection was refused \\(ECONNREFUSED\\); check OPENAI_BASE_URL`,
      ),
    );
    expect(Date.now() - startedAt).toBeLessThan(10_000);

    // Act: every case has ended, so resume sends none and writes the report again
    const runId = /^run (r-[0-9a-f]{16})$/m.exec(result.stdout)?.[1] ?? '';
    const resumed = await runCli([
      'resume',
      runId,
      '--store',
      join(folder.path, 'store'),
      '--out',
      join(folder.path, 'out'),
      '--max-failed',
      '100%',
    ]);

    // Assess: a run that evaluated nothing fails before --max-failed is asked
    expect(resumed.exitCode).toBe(1);
    expect(lastLine(resumed.stderr)).toMatch(
      /^assay resume: no case could be evaluated \((\d+) failed, 0 missing\); the first failure, q\d+: .*cannot reach the judge server/,
    );
  });

  it('exits 0 when the judges answer', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-exit-status-Hn4Kd8Lq2Zr6');
    vi.stubEnv('OPENAI_BASE_URL', server.baseUrl);
    vi.stubEnv('ASSAY_JUDGE_MODEL', 'judge-model');
    const result = await runCli([
      'run',
      DATASET,
      '--judges',
      'chunk_relevance',
      '--store',
      join(folder.path, 'store'),
      '--out',
      join(folder.path, 'out'),
    ]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^run r-[0-9a-f]{16}\nLLM judge judge-model at 127\.0\.0\.1:\d+/);
  });
});

/** Two cases; every judge call about q02's passage makes the judge server fail, so q02 fails and q01 is evaluated. */
const HALF_FAILING_DATASET = [
  {
    request_id: 'q01',
    request: 'How do I rotate an access key?',
    retrieved_context: [{ doc_uri: 'kb/rotate', content: 'To rotate a key, create a second key, then delete the old one.' }],
  },
  {
    request_id: 'q02',
    request: 'Which passage breaks the judge?',
    retrieved_context: [{ doc_uri: 'kb/poison', content: 'This passage is poisoned.' }],
  },
];

/** `assay ARGS...` as its own process, so that two runs can go at once (runCli captures this process's streams). */
async function assayProcess(
  args: readonly string[],
  environment: Record<string, string>,
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const options = { cwd: ROOT, env: { ...process.env, NODE_NO_WARNINGS: '1', ...environment } };
  return promisify(execFile)(process.execPath, [join(ROOT, 'cli', 'bin.js'), ...args], options).then(
    ({ stdout, stderr }) => ({ exitCode: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ exitCode: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

describe('assay run and resume exit status with failed cases', () => {
  let runs: TempFolder;
  let judge: OpenAiTestServer;
  /** The same dataset run twice, each time one of its two cases failing: by default, and under --max-failed 1. */
  let gated: Awaited<ReturnType<typeof assayProcess>>;
  let accepted: Awaited<ReturnType<typeof assayProcess>>;
  const store = () => join(runs.path, 'gated-store');
  const out = () => join(runs.path, 'gated-out');
  const runIdOf = (stdout: string) => /^run (r-[0-9a-f]{16})$/m.exec(stdout)?.[1] ?? '';

  beforeAll(async () => {
    runs = await createTempFolder();
    judge = await startOpenAiTestServer({
      oracle: (request, callIndex) => {
        if (request.messages.some((message) => message.content?.includes('poisoned') === true)) throw new Error('the passage is poisoned');
        return catalogOracle(request, callIndex);
      },
    });
    const dataset = await runs.write('half-failing.jsonl', HALF_FAILING_DATASET.map((row) => JSON.stringify(row)).join('\n'));
    const environment = { OPENAI_API_KEY: 'sk-exit-status-Hn4Kd8Lq2Zr6', OPENAI_BASE_URL: judge.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' };
    const run = (name: string, ...extra: string[]) =>
      assayProcess(
        [
          'run',
          dataset,
          '--judges',
          'chunk_relevance',
          '--store',
          join(runs.path, `${name}-store`),
          '--out',
          join(runs.path, `${name}-out`),
          ...extra,
        ],
        environment,
      );
    // q02 fails on each of its 3 deliveries, 2 s apart: the two runs go at once.
    [gated, accepted] = await Promise.all([run('gated'), run('accepted', '--max-failed', '1')]);
  }, 60_000);
  afterAll(async () => {
    await judge.close();
    await runs.remove();
  });

  it('exits 1 when a case failed, naming how many, the first and why, after writing and listing the report', async () => {
    // Assess: one line on stderr, last; the report written and listed on stdout
    expect(gated.exitCode).toBe(1);
    expect(lastLine(gated.stderr)).toMatch(
      /^assay run: 1 of 2 cases failed \(more than --max-failed 0\); the first: q02: .*the passage is poisoned.*; the report lists them all \(report\.json failed_cases\)$/,
    );
    expect(gated.stdout).toContain(`report files:\n  ${join(out(), 'report.json')}\n`);
    const report = reportSchema.parse(JSON.parse(await readFile(join(out(), 'report.json'), 'utf8')));
    expect(report.cases).toEqual({ total: 2, evaluated: 1, failed: 1, missing: 0, judge_failed: 0 });
  });

  it('exits 0 when the failed cases are within --max-failed', async () => {
    const report = reportSchema.parse(JSON.parse(await readFile(join(runs.path, 'accepted-out', 'report.json'), 'utf8')));
    expect(report.cases).toEqual({ total: 2, evaluated: 1, failed: 1, missing: 0, judge_failed: 0 });
    expect(accepted.stderr).not.toMatch(/^assay run: /m);
    expect(accepted.exitCode).toBe(0);
  });

  const resume = (...extra: string[]) => {
    // With the key the run was judged with: resuming a run an LLM judge judged needs it, even with no case left to judge.
    vi.stubEnv('OPENAI_API_KEY', 'sk-exit-status-Hn4Kd8Lq2Zr6');
    vi.stubEnv('OPENAI_BASE_URL', judge.baseUrl);
    return runCli(['resume', runIdOf(gated.stdout), '--store', store(), '--out', join(runs.path, 'resumed-out'), ...extra]);
  };

  it('assay resume of that run exits 1 by the same gate', async () => {
    // Act: every case has ended, so resume sends none and writes the report again
    const resumed = await resume();

    // Assess
    expect(resumed.exitCode).toBe(1);
    expect(resumed.stderr).toContain('0 unfinished cases sent again');
    expect(lastLine(resumed.stderr)).toMatch(
      /^assay resume: 1 of 2 cases failed \(more than --max-failed 0\); the first: q02: .*the passage is poisoned/,
    );
  });

  it('assay resume of that run with --max-failed 50% exits 0', async () => {
    // Act
    const resumed = await resume('--max-failed', '50%');

    // Assess
    expect(resumed.stderr).not.toMatch(/^assay resume: /m);
    expect(resumed.exitCode).toBe(0);
  });
});
