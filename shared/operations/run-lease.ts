import { z } from 'zod';
import type { ObjectStore } from '../ports/object-store.js';
import { processLiveness, processStartTime } from '../run/process-liveness.js';
import { readJsonWith } from '../schema/parse-json-with.js';

/**
 * One process at a time drives a run: `assay run`, `assay resume` and
 * `assay redrive` each hold the run's lease while they send its cases and
 * judge them, so a second operator cannot send every unfinished case again
 * (paying for each judgment twice, beside the run's judge cost ceiling).
 *
 * The lease needs nothing of the store but a write that only one writer wins
 * (`ifNoneMatch`, S3's `If-None-Match: *`): the leases of a run are numbered,
 * `runs/<run>/lease/000001.json`, `000002.json`, …, the highest is the current
 * one, and taking the lease is writing the next number, which exactly one
 * contender does. The holder renews its own object while it works and marks
 * it released at the end; one that stopped renewing (its process died on
 * another machine) has lapsed once its `expires_at` is past, and one whose
 * process is gone on this machine has lapsed at once: no longer there, left
 * a zombie (killed, never reaped), or its id now another process's
 * (process-liveness.ts).
 */

export const leaseRecordSchema = z.object({
  run_id: z.string(),
  /** What holds it: `assay resume`, `assay run`, … */
  command: z.string(),
  host: z.string(),
  pid: z.number().int(),
  /**
   * When the holder's process started (Linux: clock ticks after boot), so that
   * a later process given the same id is not taken for the holder; absent off
   * Linux and in leases written before it was recorded.
   */
  process_start_time: z.number().int().nonnegative().optional(),
  acquired_at: z.string(),
  expires_at: z.string(),
  released: z.boolean(),
});
export type LeaseRecord = z.infer<typeof leaseRecordSchema>;

export interface LeaseHolder {
  readonly command: string;
  readonly host: string;
  readonly pid: number;
}

export interface LeaseOptions {
  readonly holder: LeaseHolder;
  readonly now?: () => Date;
  /** How long a lease lasts without renewal; it is renewed every third of it. */
  readonly timeToLiveMs?: number;
  /** Whether a process of this host, started at `startTime` if recorded, still runs (a killed run's lease lapses at once). */
  readonly processAlive?: (pid: number, startTime: number | undefined) => boolean;
  /** When the holder's process started, recorded in its lease; undefined where it cannot be known. */
  readonly processStartTime?: (pid: number) => number | undefined;
}

export const LEASE_TIME_TO_LIVE_MS = 60_000;

export type LeaseOutcome = { readonly kind: 'held'; readonly lease: RunLease } | { readonly kind: 'busy'; readonly holder: LeaseRecord };

const leasePrefix = (runId: string): string => `runs/${runId}/lease/`;
const leaseKey = (runId: string, number: number): string => `${leasePrefix(runId)}${String(number).padStart(6, '0')}.json`;

/** Takes the run's lease, unless a live holder has it. */
export async function acquireRunLease(store: ObjectStore, runId: string, options: LeaseOptions): Promise<LeaseOutcome> {
  const now = options.now ?? (() => new Date());
  const timeToLiveMs = options.timeToLiveMs ?? LEASE_TIME_TO_LIVE_MS;
  const alive = options.processAlive ?? ((pid, startTime) => processLiveness(pid, startTime) === 'alive');
  const startTime = (options.processStartTime ?? processStartTime)(options.holder.pid);
  // Two rounds: a contender that loses the write of a number reads who won it, then tries the next only if that one has lapsed too.
  for (let round = 0; round < 2; round++) {
    const current = await currentLease(store, runId);
    if (current !== undefined && !lapsed(current.record, now(), options.holder.host, alive))
      return { kind: 'busy', holder: current.record };
    const number = (current?.number ?? 0) + 1;
    const record = recordOf(runId, options.holder, startTime, now(), timeToLiveMs);
    const { written } = await store.put(leaseKey(runId, number), JSON.stringify(record), { ifNoneMatch: true });
    if (written) return { kind: 'held', lease: new RunLease(store, leaseKey(runId, number), record, now, timeToLiveMs) };
  }
  const winner = await currentLease(store, runId);
  if (winner === undefined) throw new Error(`Expected a lease of run ${runId} after losing the write of one`);
  return { kind: 'busy', holder: winner.record };
}

/** The holder's side: renews the lease while the work goes on, and releases it at the end. */
export class RunLease {
  private readonly timer: NodeJS.Timeout;
  private renewing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: ObjectStore,
    private readonly key: string,
    private record: LeaseRecord,
    private readonly now: () => Date,
    private readonly timeToLiveMs: number,
  ) {
    this.timer = setInterval(
      () => {
        this.renewing = this.renew().catch(() => undefined);
      },
      Math.max(1, Math.floor(timeToLiveMs / 3)),
    );
    // Renewal must never keep a finished process alive.
    this.timer.unref();
  }

  get holder(): LeaseRecord {
    return this.record;
  }

  /** Moves the expiry to a full time to live from now. */
  async renew(): Promise<void> {
    this.record = { ...this.record, expires_at: new Date(this.now().getTime() + this.timeToLiveMs).toISOString() };
    await this.store.put(this.key, JSON.stringify(this.record));
  }

  async release(): Promise<void> {
    clearInterval(this.timer);
    await this.renewing;
    this.record = { ...this.record, released: true, expires_at: this.now().toISOString() };
    await this.store.put(this.key, JSON.stringify(this.record));
  }
}

/**
 * Who drives the run, read without taking its lease (`assay status`): the
 * current lease's holder, and whether it still holds it (not released, not
 * expired, its process alive when on this host). Undefined for a run no
 * command of this kind has driven, as a deployed run's Lambdas hold none.
 */
export async function runDriver(
  store: ObjectStore,
  runId: string,
  options: { readonly host: string; readonly now?: () => Date; readonly processAlive?: LeaseOptions['processAlive'] },
): Promise<{ readonly holder: LeaseRecord; readonly holding: boolean } | undefined> {
  const current = await currentLease(store, runId);
  if (current === undefined) return undefined;
  const alive = options.processAlive ?? ((pid, startTime) => processLiveness(pid, startTime) === 'alive');
  return { holder: current.record, holding: !lapsed(current.record, (options.now ?? (() => new Date()))(), options.host, alive) };
}

/** The lease one line can describe to the operator who was refused. */
export function describeHolder(holder: LeaseRecord): string {
  return `${holder.command} (process ${holder.pid} on ${holder.host}, since ${holder.acquired_at})`;
}

async function currentLease(store: ObjectStore, runId: string): Promise<{ number: number; record: LeaseRecord } | undefined> {
  let last: string | undefined;
  for await (const key of store.list(leasePrefix(runId))) {
    if (/\/\d{6}\.json$/.test(key) && (last === undefined || key > last)) last = key;
  }
  if (last === undefined) return undefined;
  const bytes = await store.get(last);
  if (bytes === undefined) throw new Error(`Expected the listed lease ${last} to be readable`);
  const record = readJsonWith(leaseRecordSchema, bytes, last);
  return { number: Number(last.slice(-11, -5)), record };
}

function lapsed(record: LeaseRecord, now: Date, host: string, alive: NonNullable<LeaseOptions['processAlive']>): boolean {
  if (record.released || Date.parse(record.expires_at) <= now.getTime()) return true;
  return record.host === host && !alive(record.pid, record.process_start_time);
}

function recordOf(runId: string, holder: LeaseHolder, startTime: number | undefined, now: Date, timeToLiveMs: number): LeaseRecord {
  return {
    run_id: runId,
    command: holder.command,
    host: holder.host,
    pid: holder.pid,
    ...(startTime === undefined ? {} : { process_start_time: startTime }),
    acquired_at: now.toISOString(),
    expires_at: new Date(now.getTime() + timeToLiveMs).toISOString(),
    released: false,
  };
}
