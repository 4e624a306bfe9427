import { hostname } from 'node:os';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import { acquireRunLease, describeHolder, type LeaseOptions } from '../../shared/operations/run-lease.js';
import { UsageError } from '../usage-error.js';

/**
 * Runs `work` while this process holds the run's lease (run-lease.ts), and
 * refuses, with exit code 1 and who holds it, when another live process does:
 * that one is already sending and judging the run's cases, and will write its
 * report. `statusCommand` is the `assay status` command line that shows the
 * run's progress in this store.
 */
export async function withRunLease<T>(
  store: ObjectStore,
  runId: string,
  command: string,
  statusCommand: string,
  work: () => Promise<T>,
  options: Partial<LeaseOptions> = {},
): Promise<T> {
  const outcome = await acquireRunLease(store, runId, { holder: { command, host: hostname(), pid: process.pid }, ...options });
  if (outcome.kind === 'busy') {
    const { holder } = outcome;
    throw new UsageError(
      `run ${runId} is being finished by ${describeHolder(holder)}; wait for it to write the report (${statusCommand} shows how far it has come), ` +
        `or, if that process died on another machine, try again after ${holder.expires_at}, when its lease lapses`,
      1,
    );
  }
  let value: T;
  try {
    value = await work();
  } catch (error) {
    // The work's error is what went wrong: a release that fails too (the store's disk is full) must not hide it.
    // The lease then lapses, as a dead holder's does.
    await outcome.lease.release().catch(() => undefined);
    throw error;
  }
  await outcome.lease.release();
  return value;
}
