import { describe, expect, it } from 'vitest';
import { acquireRunLease, type LeaseHolder, type LeaseOptions } from '../../../shared/operations/run-lease.js';
import { LocalFolderStore } from '../../../shared/ports/local-folder-store.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { createTempFolder } from '../../support/temp-folder.js';

const RUN = 'r-0123456789abcdef';
const START = Date.parse('2026-11-26T10:00:00.000Z');

/** A clock the test moves by hand. */
function clock(): { now: () => Date; advance: (milliseconds: number) => void } {
  let time = START;
  return { now: () => new Date(time), advance: (milliseconds) => (time += milliseconds) };
}

function holder(pid: number, host = 'build-box'): LeaseHolder {
  return { command: 'assay resume', host, pid };
}

/** `alive`: the processes of this machine that still run; no start times unless `startTime` gives the holder's. */
function options(pid: number, now: () => Date, alive: readonly number[], host = 'build-box', startTime?: number): LeaseOptions {
  return {
    holder: holder(pid, host),
    now,
    timeToLiveMs: 60_000,
    processAlive: (candidate) => alive.includes(candidate),
    processStartTime: () => startTime,
  };
}

describe('the lease of a run', () => {
  it('is refused to a second process while the first holds it, naming the holder', async () => {
    const store = new MemoryStore();
    const time = clock();
    const first = await acquireRunLease(store, RUN, options(100, time.now, [100, 200]));

    const second = await acquireRunLease(store, RUN, options(200, time.now, [100, 200]));

    expect(first.kind).toBe('held');
    expect(second).toEqual({
      kind: 'busy',
      holder: expect.objectContaining({
        pid: 100,
        host: 'build-box',
        command: 'assay resume',
        expires_at: '2026-11-26T10:01:00.000Z',
        released: false,
      }),
    });
  });

  it('goes to the next process once released', async () => {
    const store = new MemoryStore();
    const time = clock();
    const first = await acquireRunLease(store, RUN, options(100, time.now, [100, 200]));
    if (first.kind !== 'held') throw new Error('expected the first to hold the lease');

    await first.lease.release();
    const second = await acquireRunLease(store, RUN, options(200, time.now, [100, 200]));

    expect(second.kind).toBe('held');
  });

  it('lapses when its holder on another machine stops renewing it, and not before', async () => {
    const store = new MemoryStore();
    const time = clock();
    await acquireRunLease(store, RUN, options(100, time.now, [100], 'other-box'));

    time.advance(59_999);
    const early = await acquireRunLease(store, RUN, options(200, time.now, [200]));
    time.advance(1);
    const late = await acquireRunLease(store, RUN, options(200, time.now, [200]));

    expect(early.kind).toBe('busy');
    expect(late.kind).toBe('held');
  });

  it('lapses at once when its holder is a process of this machine that is gone (a killed run)', async () => {
    const store = new MemoryStore();
    const time = clock();
    await acquireRunLease(store, RUN, options(100, time.now, [100, 200]));

    const afterKill = await acquireRunLease(store, RUN, options(200, time.now, [200]));

    expect(afterKill.kind).toBe('held');
  });

  it("lapses at once when its holder's process id now names a process started later (a reused PID)", async () => {
    // Prepare: process 100, started at tick 5000, holds the lease; later the id 100 names a process started at tick 9000
    const store = new MemoryStore();
    const time = clock();
    await acquireRunLease(store, RUN, options(100, time.now, [100, 200], 'build-box', 5000));
    const asked: [number, number | undefined][] = [];
    const running = new Map([
      [100, 9000],
      [200, 7000],
    ]);

    // Act
    const next = await acquireRunLease(store, RUN, {
      ...options(200, time.now, [], 'build-box', 7000),
      processAlive: (pid, startTime) => {
        asked.push([pid, startTime]);
        return running.has(pid) && (startTime === undefined || running.get(pid) === startTime);
      },
    });

    // Assess
    expect(asked).toEqual([[100, 5000]]);
    expect(next).toEqual({
      kind: 'held',
      lease: expect.objectContaining({ holder: expect.objectContaining({ pid: 200, process_start_time: 7000 }) }),
    });
  });

  it('reads a lease written before start times were recorded, asking after its process by id alone', async () => {
    // Prepare: a lease of an older assay, with no process_start_time
    const store = new MemoryStore();
    const time = clock();
    const older = {
      run_id: RUN,
      command: 'assay resume',
      host: 'build-box',
      pid: 100,
      acquired_at: '2026-11-26T10:00:00.000Z',
      expires_at: '2026-11-26T10:01:00.000Z',
      released: false,
    };
    await store.put(`runs/${RUN}/lease/000001.json`, JSON.stringify(older));
    const asked: [number, number | undefined][] = [];

    // Act
    const whileAlive = await acquireRunLease(store, RUN, {
      ...options(200, time.now, []),
      processAlive: (pid, startTime) => {
        asked.push([pid, startTime]);
        return pid === 100;
      },
    });
    const onceGone = await acquireRunLease(store, RUN, options(200, time.now, [200]));

    // Assess
    expect(asked).toEqual([[100, undefined]]);
    expect(whileAlive).toEqual({ kind: 'busy', holder: older });
    expect(onceGone.kind).toBe('held');
  });

  it('records no start time where none can be known (no /proc)', async () => {
    const store = new MemoryStore();
    const time = clock();

    const outcome = await acquireRunLease(store, RUN, options(100, time.now, [100]));

    expect(outcome.kind === 'held' ? Object.keys(outcome.lease.holder) : []).not.toContain('process_start_time');
  });

  it('stays with its holder while it renews', async () => {
    const store = new MemoryStore();
    const time = clock();
    const first = await acquireRunLease(store, RUN, options(100, time.now, [100], 'other-box'));
    if (first.kind !== 'held') throw new Error('expected the first to hold the lease');

    time.advance(50_000);
    await first.lease.renew();
    time.advance(50_000);
    const second = await acquireRunLease(store, RUN, options(200, time.now, [200]));

    expect(second.kind).toBe('busy');
    await first.lease.release();
  });

  it('goes to exactly one of many processes asking at once, on a folder store', async () => {
    const folder = await createTempFolder();
    try {
      const store = new LocalFolderStore(folder.path);
      const time = clock();
      const pids = Array.from({ length: 12 }, (_, index) => 100 + index);

      const outcomes = await Promise.all(pids.map((pid) => acquireRunLease(store, RUN, options(pid, time.now, pids))));

      const held = outcomes.filter((outcome) => outcome.kind === 'held');
      expect(held).toHaveLength(1);
      const winner = held[0]?.kind === 'held' ? held[0].lease.holder.pid : undefined;
      for (const outcome of outcomes) if (outcome.kind === 'busy') expect(outcome.holder.pid).toBe(winner);
      await Promise.all(held.map((outcome) => (outcome.kind === 'held' ? outcome.lease.release() : undefined)));
    } finally {
      await folder.remove();
    }
  });
});
