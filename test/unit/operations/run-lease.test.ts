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

function options(pid: number, now: () => Date, alive: readonly number[], host = 'build-box'): LeaseOptions {
  return { holder: holder(pid, host), now, timeToLiveMs: 60_000, processAlive: (candidate) => alive.includes(candidate) };
}

describe('the lease of a run', () => {
  it('is refused to a second process while the first holds it, naming the holder', async () => {
    const store = new MemoryStore();
    const time = clock();
    const first = await acquireRunLease(store, RUN, options(100, time.now, [100, 200]));

    const second = await acquireRunLease(store, RUN, options(200, time.now, [100, 200]));

    expect(first.kind).toBe('held');
    expect(second).toEqual({ kind: 'busy', holder: expect.objectContaining({ pid: 100, host: 'build-box', command: 'assay resume', expires_at: '2026-11-26T10:01:00.000Z', released: false }) });
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
