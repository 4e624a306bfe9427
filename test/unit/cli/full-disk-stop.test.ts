import { describe, expect, it } from 'vitest';
import { EXIT_FAILED, failureMessage } from '../../../cli/failure-message.js';
import { stoppedByFullDisk } from '../../../cli/run/full-disk-stop.js';
import { withRunLease } from '../../../cli/run/with-run-lease.js';
import { UsageError } from '../../../cli/usage-error.js';
import { unwritableOr } from '../../../shared/ports/full-disk.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { runKeys } from '../../../shared/run/run-identity.js';

const RUN_ID = 'r-0123456789abcdef';
const FINISH = `assay resume ${RUN_ID} --store /data/.assay`;

/** A full disk as the local folder store throws it. */
const fullDisk = (key: string): unknown =>
  unwritableOr('/data/.assay', key, Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));

describe('a run stopped by a full disk', () => {
  it('says what could not be written and names the command that finishes the run, once its ingest claimed it', async () => {
    // Prepare: the run's manifest is in the store
    const store = new MemoryStore();
    await store.put(runKeys.manifest(RUN_ID), '{}');

    // Act
    const stopped = await stoppedByFullDisk(fullDisk(runKeys.result(RUN_ID, 'q1')), { store, runId: RUN_ID, finish: FINISH });

    // Assess
    expect(stopped).toBeInstanceOf(UsageError);
    expect((stopped as UsageError).exitCode).toBe(EXIT_FAILED);
    expect((stopped as UsageError).message).toBe(
      `the store /data/.assay could not write ${runKeys.result(RUN_ID, 'q1')}: no space is left on its device (ENOSPC); ` +
        `the run stopped there, and what it stored is kept: free some space on that device and finish it with: ${FINISH}`,
    );
  });

  it('says to run the same command again when the run stopped before its ingest claimed it, or had no id yet', async () => {
    // Prepare: a store without the run's manifest
    const store = new MemoryStore();
    const error = fullDisk(runKeys.caseIds(RUN_ID));

    // Act
    const unclaimed = await stoppedByFullDisk(error, { store, runId: RUN_ID, finish: FINISH });
    const beforeId = await stoppedByFullDisk(fullDisk('datasets/default/cases.jsonl'), undefined);

    // Assess
    expect((unclaimed as UsageError).message).toBe(
      `the store /data/.assay could not write ${runKeys.caseIds(RUN_ID)}: no space is left on its device (ENOSPC); ` +
        'free some space on that device and run the same command again',
    );
    expect((beforeId as UsageError).message).toMatch(
      /datasets\/default\/cases\.jsonl: .*; free some space on that device and run the same command again$/,
    );
  });

  it('gives any other error back as it came', async () => {
    // Prepare
    const bug = new TypeError('x is undefined');

    // Act, Assess
    expect(await stoppedByFullDisk(bug, { store: new MemoryStore(), runId: RUN_ID, finish: FINISH })).toBe(bug);
  });
});

describe('the failure line of any command that met a full disk', () => {
  it('says what to do, without calling it unexpected, with exit code 1', () => {
    // Prepare: the raw error of a copy into a full --out folder
    const error = Object.assign(new Error("ENOSPC: no space left on device, copyfile '/data/.assay/reports/r.json' -> '/out/r.json'"), {
      code: 'ENOSPC',
      path: '/data/.assay/reports/r.json',
      dest: '/out/r.json',
    });

    // Act
    const failure = failureMessage(error, { debug: false });

    // Assess
    expect(failure).toEqual({
      lines: [
        "ENOSPC: no space left on device, copyfile '/data/.assay/reports/r.json' -> '/out/r.json'; free some space on that device and run the command again",
      ],
      exitCode: EXIT_FAILED,
    });
  });

  it('shows the stack trace with --debug, as for any error', () => {
    // Prepare
    const error = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

    // Act
    const failure = failureMessage(error, { debug: true });

    // Assess
    expect(failure.lines[0]).toMatch(/^Error: ENOSPC: no space left on device, write\n\s+at /);
  });
});

describe('withRunLease when the work fails and so does the release', () => {
  it("throws the work's error, which a failed release (the same full disk) must not hide", async () => {
    // Prepare: a store that takes the lease, then no write at all once the work has begun
    let full = false;
    const store = new (class extends MemoryStore {
      override async put(key: string, body: Uint8Array | string, options?: { ifNoneMatch?: boolean }) {
        if (full) throw fullDisk(key);
        return super.put(key, body, options);
      }
    })();
    const workError = fullDisk(runKeys.result(RUN_ID, 'q1'));

    // Act
    const ran = withRunLease(store, RUN_ID, 'assay run', `assay status ${RUN_ID}`, async () => {
      full = true;
      throw workError;
    });

    // Assess
    await expect(ran).rejects.toBe(workError);
  });
});
