import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processLiveness, readProcessStat } from '../../../shared/run/process-liveness.js';
import { createWorkFolder, removeStaleWorkFolders, workFolderPath, type WorkFolderSettings } from '../../../shared/run/work-folders.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';
import { spawnUnreaped } from '../../support/unreaped-process.js';
import { until } from '../../support/until.js';

let folder: TempFolder;
let settings: WorkFolderSettings;
beforeEach(async () => {
  folder = await createTempFolder();
  settings = { parent: join(folder.path, 'assay-work'), staleAfterMs: 60_000 };
});
afterEach(async () => {
  await folder.remove();
});

/** The id of a process that has run and exited, so no process has it (until the system reuses it). */
async function deadProcessId(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  if (child.pid === undefined) throw new Error('the child process did not start');
  return child.pid;
}

/** A work folder as the process `pid` would have made it, last modified `ageMs` ago. */
async function leftover(pid: number, ageMs: number): Promise<string> {
  const path = join(settings.parent, `ingest-pid${pid}-AbC123`);
  await mkdir(join(path, 'spill'), { recursive: true });
  const then = new Date(Date.now() - ageMs);
  await utimes(path, then, then);
  return path;
}

describe('work folders', () => {
  it('are made under the parent, named with the owning process', async () => {
    const path = await createWorkFolder(settings, 'ingest');

    expect(path.startsWith(join(settings.parent, `ingest-pid${process.pid}-`))).toBe(true);
  });

  it('names a folder to be made later as it names those it makes, so a later ingest removes it once its process is gone', async () => {
    // Prepare: the path a process that has exited would have been given, made and left 2 minutes old
    const path = workFolderPath(settings, 'case-spool');
    const dead = await deadProcessId();
    const left = path.replace(`-pid${process.pid}-`, `-pid${dead}-`);
    await mkdir(left, { recursive: true });
    const then = new Date(Date.now() - 120_000);
    await utimes(left, then, then);

    // Act
    const removed = await removeStaleWorkFolders(settings);

    // Assess
    expect(path.startsWith(join(settings.parent, `case-spool-pid${process.pid}-`))).toBe(true);
    expect(workFolderPath(settings, 'case-spool')).not.toBe(path);
    expect(removed).toEqual([left]);
  });

  it('removes the old folder of a dead process and keeps those of live processes, young leftovers and other files', async () => {
    // Prepare
    const dead = await deadProcessId();
    const deadAndOld = await leftover(dead, 120_000);
    const deadButYoung = join(settings.parent, `ingest-pid${dead}-young1`);
    await mkdir(deadButYoung, { recursive: true });
    const liveParent = await leftover(process.ppid, 120_000);
    const ours = await createWorkFolder(settings, 'ingest');
    const unrelated = join(settings.parent, 'not-ours');
    await mkdir(unrelated);

    // Act
    const removed = await removeStaleWorkFolders(settings);

    // Assess
    expect(processLiveness(dead)).toBe('missing');
    expect(removed).toEqual([deadAndOld]);
    expect((await readdir(settings.parent)).sort()).toEqual(
      [deadButYoung, liveParent, ours, unrelated].map((path) => path.slice(settings.parent.length + 1)).sort(),
    );
  });

  // Signal 0 still reaches a zombie; only /proc tells it has exited.
  it.runIf(existsSync('/proc/self/stat'))('removes the old folder of a process that exited but was never reaped (a zombie)', async () => {
    // Prepare: a child that exits at once under a parent that does not reap it
    const zombie = await spawnUnreaped(process.execPath, ['-e', '']);
    try {
      await until(() => readProcessStat(zombie.pid)?.state === 'Z', 10_000);
      const left = await leftover(zombie.pid, 120_000);

      // Act
      const removed = await removeStaleWorkFolders(settings);

      // Assess
      expect(removed).toEqual([left]);
    } finally {
      await zombie.release();
    }
  });

  it('does nothing when the parent does not exist yet', async () => {
    expect(await removeStaleWorkFolders(settings)).toEqual([]);
  });
});
