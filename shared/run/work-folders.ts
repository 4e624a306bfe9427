import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processLiveness } from './process-liveness.js';

/**
 * Local scratch folders of ingest (the downloaded dataset, spill files, the
 * spooled messages). Each lives under one parent owned by assay, named with
 * the process that made it: `<parent>/<purpose>-pid<pid>-<random>`. A
 * process that dies without cleaning up (SIGKILL, out of memory, a Lambda
 * timeout) leaves its folder behind; the next ingest removes the folders
 * whose owner no longer exists, once they are older than a grace period (a
 * folder of a process in another PID namespace sharing the temp folder is
 * not mistaken for a dead one while it is fresh).
 */
export interface WorkFolderSettings {
  /** The parent of every work folder; `<temp>/assay-work` by default. */
  readonly parent: string;
  /** Leftovers younger than this are kept even when their owner is gone. */
  readonly staleAfterMs: number;
}

export const DEFAULT_WORK_FOLDERS: WorkFolderSettings = { parent: join(tmpdir(), 'assay-work'), staleAfterMs: 15 * 60 * 1000 };

const OWNED_NAME = /^[a-z-]+-pid(\d+)-[A-Za-z0-9]+$/;

export async function createWorkFolder(settings: WorkFolderSettings, purpose: string): Promise<string> {
  await mkdir(settings.parent, { recursive: true });
  return mkdtemp(join(settings.parent, `${purpose}-pid${process.pid}-`));
}

/**
 * A fresh work folder's path, not yet created, for a caller that creates it
 * later and synchronously (the in-process queue's spool, on its first file).
 */
export function workFolderPath(settings: WorkFolderSettings, purpose: string): string {
  return join(settings.parent, `${purpose}-pid${process.pid}-${randomBytes(6).toString('hex')}`);
}

/** Removes the work folders of processes that no longer exist; returns the removed paths. */
export async function removeStaleWorkFolders(settings: WorkFolderSettings, now: number = Date.now()): Promise<string[]> {
  const names = await readdir(settings.parent).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const removed: string[] = [];
  for (const name of names) {
    const owner = OWNED_NAME.exec(name)?.[1];
    // A zombie owner has exited too (process-liveness.ts); a name records no start time, so a reused id keeps the folder until that process ends.
    if (owner === undefined || Number(owner) === process.pid || processLiveness(Number(owner)) === 'alive') continue;
    const path = join(settings.parent, name);
    const modified = await stat(path).then(
      (found) => found.mtimeMs,
      () => undefined,
    );
    if (modified === undefined || now - modified < settings.staleAfterMs) continue;
    await rm(path, { recursive: true, force: true });
    removed.push(path);
  }
  return removed;
}
