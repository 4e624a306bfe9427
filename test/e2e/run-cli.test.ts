import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSchema } from '../../shared/schema/report.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

const root = join(import.meta.dirname, '..', '..');
let folder: TempFolder;
beforeAll(async () => {
  folder = await createTempFolder();
});
afterAll(async () => {
  await folder.remove();
});

describe('assay run, as the README runs it', () => {
  it('evaluates the example dataset with the lexical judge, printing the summary and the report paths', async () => {
    // Prepare: no judge key in the environment, as on a fresh machine
    const environment = { ...process.env };
    delete environment.OPENAI_API_KEY;
    const out = join(folder.path, 'report');

    // Act
    const { stdout, stderr } = await promisify(execFile)(
      join(root, 'cli', 'bin.js'),
      ['run', 'examples/datasets/search-assistant.jsonl', '--store', join(folder.path, 'store'), '--out', out],
      { cwd: root, env: environment },
    );

    // Assess
    expect(stderr).toContain('cases 12/12');
    const runId = /^run (r-[0-9a-f]{16})\n/.exec(stdout)?.[1];
    expect(runId).toBeDefined();
    expect(stderr.split('\n')[0]).toBe(`assay: run ${runId} on store ${join(folder.path, 'store')}, in-process queues; if interrupted, finish it with: assay resume ${runId} --store ${join(folder.path, 'store')}`);
    expect(stdout).toMatch(/^lexical judge \(non-LLM approximations\): OPENAI_API_KEY is not set$/m);
    expect(stdout).toMatch(/^retrieval\/ground_truth\/ndcg@10\/average\s+\S+ \(n=9\)\s+\S+ \(n=9\)$/m);
    expect(stdout).toContain(`  ${join(out, 'report.json')}`);
    const report = reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
    expect(report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0 });
    expect(Object.keys(report.engines)).toEqual(['bm25', 'hybrid']);
  });

  it('explains a bad option', async () => {
    const failure = await promisify(execFile)(join(root, 'cli', 'bin.js'), ['run', 'examples/datasets/search-assistant.jsonl', '--concurrency', '0'], { cwd: root }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toContain('assay run: --concurrency got "0"; expected an integer from 1 and up');
  });
});
