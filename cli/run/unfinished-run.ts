import type { ObjectStore } from '../../shared/ports/object-store.js';
import { runKeys } from '../../shared/run/run-identity.js';

/** A run that stopped before its report, and the command that would finish it. */
export interface UnfinishedRun {
  readonly store: ObjectStore;
  readonly runId: string;
  /** `assay resume RUN ...`, as the user would type it. */
  readonly finish: string;
}

/**
 * Whether `assay resume` can finish the run: its ingest wrote the manifest,
 * which claims the run. A run stopped before that (Ctrl-C while a large
 * dataset was read, a full disk) judged nothing, and resume refuses it: the
 * same `assay run` again starts it anew. A store that cannot be read says
 * nothing either way, and the resume command, right in all but that window,
 * is given.
 */
export async function resumable(run: UnfinishedRun): Promise<boolean> {
  return run.store.get(runKeys.manifest(run.runId)).then(
    (manifest) => manifest !== undefined,
    () => true,
  );
}
