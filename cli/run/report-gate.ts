import { join } from 'node:path';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import { terminalName } from '../../shared/report-render/terminal-text.js';
import type { Report } from '../../shared/schema/report.js';
import { EXIT_FAILED } from '../failure-message.js';
import { UsageError } from '../usage-error.js';
import { judgeFailuresWarning, tooManyFailed, type FailedCasesAllowance } from './failed-cases-gate.js';
import type { Infrastructure } from './store-and-queues.js';
import { nothingEvaluated } from './nothing-evaluated.js';

/**
 * What every command that writes a report or waits for one (`assay run`,
 * `resume`, `redrive`, `submit --wait`) exits 1 for, as one line, in this
 * order: a run that evaluated nothing (its own message, which no allowance
 * passes), then more failed or missing cases, and cases that lack a
 * judgment, than `--max-failed` allows.
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

/**
 * reportGate acted on, as every command that writes or waits for a report
 * does: its failure ends the command with exit 1; a run that passes with cases
 * that lack a judgment (within `--max-failed`) says so on `stderr`, one
 * `assay: warning:` line, since its judge averages are over fewer cases.
 */
export async function enforceReportGate(
  report: Report,
  store: ObjectStore,
  locate: (key: string) => string,
  maxFailed: FailedCasesAllowance,
  stderr: { write(text: string): unknown },
): Promise<void> {
  const failure = await reportGate(report, store, locate, maxFailed);
  if (failure !== undefined) throw new UsageError(failure, EXIT_FAILED);
  const warning = judgeFailuresWarning(report, maxFailed);
  if (warning !== undefined) stderr.write(`assay: warning: ${terminalName(warning)}\n`);
}

/** Where a user finds a store key: a path in the store folder, or an s3:// address. */
export function locateIn(infrastructure: Pick<Infrastructure, 'storeFolder' | 'bucket'>): (key: string) => string {
  const { storeFolder, bucket } = infrastructure;
  return (key) => (storeFolder !== undefined ? join(storeFolder, key) : `s3://${bucket}/${key}`);
}
