import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closedPort } from '../support/closed-port.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { runCli } from '../support/run-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

const DATASET = join(import.meta.dirname, '..', '..', 'examples', 'datasets', 'search-assistant.jsonl');

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
    const args = ['--judges', 'chunk_relevance,correctness', '--concurrency', '2', '--store', join(folder.path, 'store'), '--out', join(folder.path, 'out')];
    const result = await runCli(['run', DATASET, ...args]);

    // Assess: at most the calls in flight when the first refusal came back reach the server
    expect(result.exitCode).toBe(1);
    expect(lastLine(result.stderr)).toMatch(
      /^assay run: every judge call failed \((\d+) of \1\); the first: .*the judge server refused the credentials \(HTTP 401: Incorrect API key provided: \[redacted\]\. .*\); check OPENAI_API_KEY and OPENAI_BASE_URL$/,
    );
    expect(server.log.length).toBeGreaterThan(0);
    expect(server.log.length).toBeLessThanOrEqual(2);
  });

  it('exits 1 within seconds when nothing listens at the judge base URL, naming the URL', async () => {
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
      new RegExp(`^assay run: no case could be evaluated \\((\\d+) failed, 0 missing\\); the first failure, q\\d+: .*cannot reach the judge server at ${url}: the connection was refused \\(ECONNREFUSED\\); check OPENAI_BASE_URL`),
    );
    expect(Date.now() - startedAt).toBeLessThan(10_000);
  });

  it('exits 0 when the judges answer', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-exit-status-Hn4Kd8Lq2Zr6');
    vi.stubEnv('OPENAI_BASE_URL', server.baseUrl);
    vi.stubEnv('ASSAY_JUDGE_MODEL', 'judge-model');
    const result = await runCli(['run', DATASET, '--judges', 'chunk_relevance', '--store', join(folder.path, 'store'), '--out', join(folder.path, 'out')]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^run r-[0-9a-f]{16}\nLLM judge judge-model at 127\.0\.0\.1:\d+/);
  });
});
