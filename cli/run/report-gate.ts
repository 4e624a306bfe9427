import { join } from 'node:path';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import type { Report } from '../../shared/schema/report.js';
import { tooManyFailed, type FailedCasesAllowance } from './failed-cases-gate.js';
import type { Infrastructure } from './store-and-queues.js';
import { nothingEvaluated } from './nothing-evaluated.js';

/**
 * What every command that writes a report or waits for one (`assay run`,
 * `resume`, `redrive`, `submit --wait`) exits 1 for, as one line, in this
 * order: a run that evaluated nothing (its own message, which no allowance
 * passes), then more failed or missing cases than `--max-failed` allows.
 * Undefined when the run passes both. `locate` turns a store key into where
 * the user finds the object.
 */
export async function reportGate(
  report: Report,
  store: ObjectStore,
  locate: (key: string) => string,
  maxFailed: FailedCasesAllowance,
): Promise<string | undefined> {
  return (await nothingEvaluated(report, store, locate)) ?? tooManyFailed(report, maxFailed);
}

/** Where a user finds a store key: a path in the store folder, or an s3:// address. */
export function locateIn(infrastructure: Pick<Infrastructure, 'storeFolder' | 'bucket'>): (key: string) => string {
  const { storeFolder, bucket } = infrastructure;
  return (key) => (storeFolder !== undefined ? join(storeFolder, key) : `s3://${bucket}/${key}`);
}
