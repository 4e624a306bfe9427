import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../support/built-cli.js';
import { REPOSITORY_ROOT } from '../support/markdown.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * `assay status` of local runs as a newcomer types it, through the built bin
 * in a folder of their own: without --store it reads the store `assay run`
 * writes by default, `.assay`, as resume and redrive do; a run id that names
 * nothing in the store is said to be no run, exit 1, not a run still to start.
 */
const DATASET = join(REPOSITORY_ROOT, 'examples', 'datasets', 'search-assistant.jsonl');

let folder: TempFolder;
/** The run `assay run` made in the folder, with the default store and the offline lexical judge. */
let runId: string;
beforeAll(async () => {
  folder = await createTempFolder();
  const run = await runBuiltCli(['run', DATASET], { cwd: folder.path });
  expect(run.exitCode).toBe(0);
  runId = /^run (r-[0-9a-f]{16})$/m.exec(run.stdout)?.[1] ?? '';
}, 60_000);
afterAll(async () => {
  await folder.remove();
});

const status = (...args: string[]) => runBuiltCli(['status', ...args], { cwd: folder.path });

describe('assay status of a local run', () => {
  it('reads the default store .assay when neither --store nor --bucket is given', async () => {
    // Act
    const outcome = await status(runId);

    // Assess
    expect(outcome.stderr).toBe('');
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toBe(
      `run ${runId} (suite default, datasets/default/search-assistant.jsonl): 12 cases, 12 evaluated, 0 failed, 0 pending; ` +
        `reported: reports/default/${runId}/report.json\n`,
    );
  });

  it('says a mistyped run id is no run in the store, and exits 1', async () => {
    // Act
    const outcome = await status('r-0000000000000000', '--store', '.assay');

    // Assess
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toBe(
      `assay status: no such run r-0000000000000000 in store ${join(folder.path, '.assay')}; ` +
        'check the run id (assay run prints it on its first line) and the store\n',
    );
    expect(outcome.exitCode).toBe(1);
  });

  it('says a run whose folder exists but that ingest has not claimed yet is not started, and exits 0', async () => {
    // Prepare: what `assay run` writes before ingest: the run's lease, and no manifest
    const pending = 'r-00000000000000aa';
    const lease = join(folder.path, '.assay', 'runs', pending, 'lease');
    await mkdir(lease, { recursive: true });
    await writeFile(join(lease, '000001.json'), '{}');

    // Act
    const outcome = await status(pending);

    // Assess
    expect(outcome.stdout).toBe(`run ${pending}: not started yet (no manifest): ingest has not claimed it\n`);
    expect(outcome.exitCode).toBe(0);
  });

  it('still refuses both --store and --bucket', async () => {
    const outcome = await status(runId, '--store', '.assay', '--bucket', 'b');

    expect(outcome.exitCode).toBe(2);
    expect(outcome.stderr).toBe(
      'assay status: --store names a local folder and --bucket or --aws-endpoint a bucket; give one or the other\n',
    );
  });
});
