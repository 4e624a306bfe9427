import { tmpdir } from 'node:os';
import { fullDiskOf, fullDiskText } from '../../shared/ports/full-disk.js';
import { EXIT_FAILED } from '../failure-message.js';
import { UsageError } from '../usage-error.js';
import { resumable, type UnfinishedRun } from './unfinished-run.js';

/**
 * The error a command that drives a run ends with when the run met a full
 * disk (or quota, or read-only file system: shared/ports/full-disk.ts): what
 * could not be written, and what to do once there is space. What the run
 * stored is kept (every object is written whole or not at all, and a write
 * that failed leaves nothing behind), so a run its ingest claimed is
 * finished by `assay resume`; one stopped before that (`run` is undefined
 * before the run has an id) is started again by the same command. Any
 * other error is returned as it came.
 */
export async function stoppedByFullDisk(error: unknown, run: UnfinishedRun | undefined): Promise<unknown> {
  const full = fullDiskOf(error);
  if (full === undefined) return error;
  const next =
    run !== undefined && (await resumable(run))
      ? `the run stopped there, and what it stored is kept: free some space on that device and finish it with: ${run.finish}`
      : 'free some space on that device and run the same command again';
  return new UsageError(`${fullDiskText(full, tmpdir())}; ${next}`, EXIT_FAILED);
}
