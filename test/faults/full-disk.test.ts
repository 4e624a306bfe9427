import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSchema } from '../../shared/schema/report.js';
import { runBuiltCli, type BuiltCliOutcome } from '../support/built-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { mountTmpfs, type Tmpfs } from '../support/tmpfs.js';

/**
 * `assay run` of the example dataset with its store on a disk that fills up
 * (a tmpfs of a few KiB, the file system Linux keeps in memory): at the first
 * write refused for want of space the run stops, says which object could not
 * be written and what to do, and leaves no partial file behind; once there is
 * space, the command it names (`assay resume`, or the same `assay run` when
 * the run stopped before its ingest claimed it) ends with the report a run on
 * a roomy disk writes. Mounting needs root; elsewhere the tests skip, saying so.
 */
const EXAMPLE = 'examples/datasets/search-assistant.jsonl';
/** Enough room for the dataset, the run's manifest and some of its twelve results, not for all. */
const FILLS_WHILE_JUDGING_KIB = 100;
/** Enough room for the dataset and the run's lease, not for its ingest's case list. */
const FILLS_IN_INGEST_KIB = 24;
/** As TMPDIR: room for ingest's copy of the dataset, not for the case messages it spools beside it. */
const SCRATCH_FILLS_KIB = 24;
/** As TMPDIR for 5,000 rows: room for the dataset's copy and some of the case messages spooled. */
const LARGE_SCRATCH_FILLS_KIB = 3000;
const ROOMY_KIB = 4096;

let folder: TempFolder;
let reference: Record<string, unknown>;
const mounted: Tmpfs[] = [];

beforeAll(async () => {
  folder = await createTempFolder();
  // The report a run on a roomy disk writes: what a run that met a full disk must end with too.
  const out = join(folder.path, 'reference-out');
  const clean = await runBuiltCli(['run', EXAMPLE, '--store', join(folder.path, 'reference-store'), '--out', out]);
  if (clean.exitCode !== 0) throw new Error(`the reference run exited ${clean.exitCode}: ${clean.stderr}`);
  reference = await reportWithoutIdentity(out);
}, 60_000);

afterAll(async () => {
  for (const disk of mounted) await disk.unmount();
  await folder?.remove();
});

/** A disk of `kib` KiB for this test, or the reason the test skips. */
async function smallDisk(name: string, kib: number, skip: (reason: string) => never): Promise<Tmpfs> {
  const disk = await mountTmpfs(join(folder.path, name), kib);
  if ('unavailable' in disk) skip(disk.unavailable);
  mounted.push(disk);
  return disk;
}

/** report.json less what differs between any two runs: the run id and when it was created. */
async function reportWithoutIdentity(out: string): Promise<Record<string, unknown>> {
  const { run_id: _id, created_at: _created, ...rest } = reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
  return rest;
}

/** Every file under `root`, relative to it. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

const lastLine = (outcome: BuiltCliOutcome): string => outcome.stderr.trimEnd().split('\n').at(-1) ?? '';
const runIdOf = (outcome: BuiltCliOutcome): string => /^run (r-[0-9a-f]{16})$/m.exec(outcome.stdout)?.[1] ?? '';

describe('a run whose store fills up while its cases are judged', () => {
  it('stops at the first refused write, names it and the resume command, leaves no partial file, and resumes to the same report', async (context) => {
    // Prepare
    const disk = await smallDisk('judging', FILLS_WHILE_JUDGING_KIB, context.skip);
    const store = join(disk.path, 'store');
    const out = join(folder.path, 'judging-out');

    // Act: the run; then, the disk grown, the command its last line names
    const stopped = await runBuiltCli(['run', EXAMPLE, '--store', store, '--out', out]);
    const leftovers = (await filesUnder(store)).filter((file) => file.endsWith('.tmp'));
    await disk.resize(ROOMY_KIB);
    const finish = /finish it with: assay (resume r-[0-9a-f]{16} --store \S+)$/.exec(lastLine(stopped))?.[1] ?? '';
    const resumed = await runBuiltCli([...finish.split(' '), '--out', out]);

    // Assess: one line says what and what to do; no case was sent round again meanwhile
    const runId = runIdOf(stopped);
    expect(stopped.exitCode).toBe(1);
    expect(lastLine(stopped)).toMatch(
      new RegExp(
        `^assay run: the store ${store} could not write runs/${runId}/results/[0-9a-f]{2}/q\\d\\d\\.json: no space is left on its device \\(ENOSPC\\); ` +
          `the run stopped there, and what it stored is kept: free some space on that device and finish it with: assay resume ${runId} --store ${store}$`,
      ),
    );
    expect(stopped.stderr).not.toMatch(/cases retried [1-9]/);
    expect(stopped.stderr).not.toContain('unexpected error');
    expect(leftovers).toEqual([]);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`^assay: run ${runId}: \\d+ unfinished cases? sent again`, 'm'));
    expect(await reportWithoutIdentity(out)).toEqual(reference);
  }, 60_000);
});

describe('a run whose store fills up before its ingest claims it', () => {
  it('says to run the same command again, which resume confirms, and that command then writes the report', async (context) => {
    // Prepare
    const disk = await smallDisk('ingest', FILLS_IN_INGEST_KIB, context.skip);
    const store = join(disk.path, 'store');
    const out = join(folder.path, 'ingest-out');
    const command = ['run', EXAMPLE, '--store', store, '--out', out];

    // Act: the run; resume of the id it printed; then, the disk grown, the same command
    const stopped = await runBuiltCli(command);
    const runId = runIdOf(stopped);
    const resume = await runBuiltCli(['resume', runId, '--store', store, '--out', out]);
    await disk.resize(ROOMY_KIB);
    const again = await runBuiltCli(command);

    // Assess
    expect(stopped.exitCode).toBe(1);
    expect(runId).not.toBe('');
    expect(lastLine(stopped)).toMatch(
      new RegExp(
        `^assay run: the store ${store} could not write runs/${runId}/\\S+: no space is left on its device \\(ENOSPC\\); free some space on that device and run the same command again$`,
      ),
    );
    expect(resume.exitCode).toBe(1);
    expect(resume.stderr).toBe(
      `assay resume: run ${runId} stopped before its ingest claimed it (it has no manifest in store ${store}, in-process queues): ` +
        'nothing of it was judged, so there is nothing to finish; start it again with assay run\n',
    );
    expect(again.exitCode, again.stderr).toBe(0);
    expect(await reportWithoutIdentity(out)).toEqual(reference);
  }, 60_000);
});

describe('a run whose temp folder fills up while ingest spools the cases', () => {
  it('ends with exit 1 and what to do, where it crashed on an unhandled stream error or exited 13 with nothing said', async (context) => {
    // Prepare: 5,000 rows; TMPDIR with room for ingest's copy of them and part of the case messages it spools
    const rows = Array.from({ length: 5_000 }, (_, index) =>
      JSON.stringify({
        request_id: `q${index}`,
        request: `what is item ${index}`,
        engine: 'e',
        retrieved_context: [{ doc_uri: `d${index}`, content: `item ${index} text` }],
        response: `item ${index}`,
      }),
    );
    const dataset = await folder.write('large.jsonl', `${rows.join('\n')}\n`);
    const disk = await smallDisk('large-scratch', LARGE_SCRATCH_FILLS_KIB, context.skip);

    // Act
    const stopped = await runBuiltCli(
      ['run', dataset, '--store', join(folder.path, 'large-store'), '--out', join(folder.path, 'large-out')],
      {
        env: { TMPDIR: disk.path },
      },
    );

    // Assess
    expect(stopped.exitCode, stopped.stderr).toBe(1);
    expect(lastLine(stopped)).toBe(
      `assay run: ENOSPC: no space left on device, write (to a scratch file in the temp folder, ${disk.path}; TMPDIR moves it); ` +
        'free some space on that device and run the same command again',
    );
  }, 60_000);

  it('says so, naming the temp folder; with room there the same command writes the report', async (context) => {
    // Prepare: TMPDIR on a disk with room for the dataset's copy, not for the spooled case messages
    const disk = await smallDisk('scratch', SCRATCH_FILLS_KIB, context.skip);
    const out = join(folder.path, 'scratch-out');
    const command = ['run', EXAMPLE, '--store', join(folder.path, 'scratch-store'), '--out', out];

    // Act
    const stopped = await runBuiltCli(command, { env: { TMPDIR: disk.path } });
    await disk.resize(ROOMY_KIB);
    const again = await runBuiltCli(command, { env: { TMPDIR: disk.path } });

    // Assess
    expect(stopped.exitCode).toBe(1);
    expect(lastLine(stopped)).toBe(
      `assay run: ENOSPC: no space left on device, write (to a scratch file in the temp folder, ${disk.path}; TMPDIR moves it); ` +
        'free some space on that device and run the same command again',
    );
    expect(again.exitCode, again.stderr).toBe(0);
    expect(await reportWithoutIdentity(out)).toEqual(reference);
  }, 60_000);
});
