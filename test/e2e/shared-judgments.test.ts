import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reportSchema } from '../../shared/schema/report.js';
import { runBuiltCli } from '../support/built-cli.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { REPOSITORY_ROOT } from '../support/markdown.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * Two identical judge requests in flight at once in a run are sent once, and
 * the second judgment shares the first one's answer. In the example dataset,
 * q04's two engines retrieved the same passages, so context_sufficiency asks
 * the same question for both at once. The shared judgment is named as such,
 * never as a cache hit (the run may have no cache), and a failure it shares
 * is its call's, counted once.
 */
const DATASET = join(REPOSITORY_ROOT, 'examples', 'datasets', 'search-assistant.jsonl');
const JUDGE = 'context_sufficiency';

let folder: TempFolder;
let server: OpenAiTestServer;
beforeEach(async () => {
  folder = await createTempFolder();
  server = await startOpenAiTestServer({ oracle: catalogOracle });
});
afterEach(async () => {
  await server.close();
  await folder.remove();
});

function run(...extra: string[]) {
  const args = ['run', DATASET, '--judges', JUDGE, '--store', join(folder.path, 'store'), '--out', join(folder.path, 'out'), ...extra];
  return runBuiltCli(args, {
    env: { OPENAI_API_KEY: 'sk-shared-judgments-4Rt8', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' },
  });
}

/** The progress line as the run ended. */
const lastProgressLine = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('cases '))
    .at(-1) ?? '';

describe('identical judge requests in flight at once in a run', () => {
  it('are one call, and the progress line and report.json count the other judgment as shared in the run, with --no-cache never a cache hit', async () => {
    // Act
    const outcome = await run('--no-cache');

    // Assess
    expect(outcome.exitCode).toBe(0);
    const calls = server.log.length;
    expect(lastProgressLine(outcome.stderr)).toBe(
      `cases 12/12 | judge calls ${calls} | cache off | shared in the run 1 | retries 0 | errors 0 | cases retried 0 | ETA -`,
    );
    expect(outcome.stderr).not.toContain('cache hits');
    const report = reportSchema.parse(JSON.parse(await readFile(join(folder.path, 'out', 'report.json'), 'utf8')));
    expect(report.judges[JUDGE]).toMatchObject({ calls, cache_hits: 0, shared_in_run: 1, errors: 0 });
    expect(await readFile(join(folder.path, 'out', 'report.md'), 'utf8')).toContain(
      '1 judgment was shared in the run: asked while an identical request was in flight, answered by that request',
    );
  });

  it('count a refused call once: every judge call failed (N of N) when the server refuses the key', async () => {
    // Prepare: every request is answered 401
    server.setFaults({ echoKey: { status: 401, form: 'truncated' } });

    // Act
    const outcome = await run('--no-cache');

    // Assess
    expect(outcome.exitCode).toBe(1);
    expect(outcome.stderr.trimEnd().split('\n').at(-1)).toMatch(/^assay run: every judge call failed \((\d+) of \1\); the first: /);
  });
});
