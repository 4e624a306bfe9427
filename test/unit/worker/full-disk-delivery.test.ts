import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { StoreUnwritableError, unwritableOr } from '../../../shared/ports/full-disk.js';
import { runKeys } from '../../../shared/run/run-identity.js';
import { caseMessageSchema } from '../../../shared/schema/pipeline-messages.js';
import { readAttemptError } from '../../../shared/worker/attempt-error.js';
import { evaluateCaseMessage, type WorkerDependencies } from '../../../shared/worker/evaluate-case.js';
import { rotateKeyCaseMessage } from '../../support/rotate-key-case.js';
import { manifest } from '../report/factories.js';

const RUN_ID = 'r-0123456789abcdef';

/** A store whose disk fills up: every write of a key `full` picks is refused as a local folder refuses it, ENOSPC. */
class FillingStore extends MemoryStore {
  constructor(private readonly full: (key: string) => boolean) {
    super();
  }

  override async put(key: string, body: Uint8Array | string, options?: { ifNoneMatch?: boolean }): Promise<{ written: boolean }> {
    if (!this.full(key)) return super.put(key, body, options);
    const cause = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' });
    throw unwritableOr('/data/.assay', key, cause);
  }
}

const lexical = (store: MemoryStore): WorkerDependencies => ({ store, judgingFor: () => ({ backend: { kind: 'lexical' }, judges: [] }) });
const delivery = { messageId: 'm-1', receiveCount: 1 };

describe('a judge worker whose local store has no space left', () => {
  it('throws the full disk when the result cannot be written, rather than failing the case for another delivery to judge again', async () => {
    // Prepare: the run's manifest is there; the disk fills before the result
    const store = new FillingStore((key) => key.startsWith(`runs/${RUN_ID}/`) && !key.endsWith('manifest.json'));
    await store.put(runKeys.manifest(RUN_ID), JSON.stringify(manifest(['q1'], { run_id: RUN_ID, engines: ['bm25'] })));

    // Act
    const evaluated = evaluateCaseMessage(lexical(store), rotateKeyCaseMessage(RUN_ID), delivery);

    // Assess: the store's error, naming the result's key; nothing recorded for the failure recorder
    await expect(evaluated).rejects.toThrow(StoreUnwritableError);
    await expect(evaluated).rejects.toThrow(
      `the store /data/.assay could not write ${runKeys.result(RUN_ID, 'q1')}: no space is left on its device (ENOSPC)`,
    );
    expect(await store.get(runKeys.result(RUN_ID, 'q1'))).toBeUndefined();
    expect(await readAttemptError(store, RUN_ID, 'q1')).toBeUndefined();
  });

  it("throws the full disk met while recording another failure's reason", async () => {
    // Prepare: a case of a run without a manifest (a failure of its own), on a store that takes no attempt record
    const store = new FillingStore((key) => key.includes('/attempts/'));
    const message = caseMessageSchema.parse({ ...rotateKeyCaseMessage(RUN_ID), run_id: 'r-fedcba9876543210' });

    // Act
    const evaluated = evaluateCaseMessage(lexical(store), message, delivery);

    // Assess
    await expect(evaluated).rejects.toThrow(
      `the store /data/.assay could not write ${runKeys.lastError('r-fedcba9876543210', 'q1')}: no space is left on its device (ENOSPC)`,
    );
  });

  it('still fails the case, its reason recorded, for a write refused for any other reason', async () => {
    // Prepare: the same run on a store that refuses the result as S3 does under an outage
    const store = new (class extends MemoryStore {
      override async put(key: string, body: Uint8Array | string, options?: { ifNoneMatch?: boolean }) {
        if (key === runKeys.result(RUN_ID, 'q1'))
          throw Object.assign(new Error('We encountered an internal error'), { name: 'InternalError' });
        return super.put(key, body, options);
      }
    })();
    await store.put(runKeys.manifest(RUN_ID), JSON.stringify(manifest(['q1'], { run_id: RUN_ID, engines: ['bm25'] })));

    // Act
    const outcome = await evaluateCaseMessage(lexical(store), rotateKeyCaseMessage(RUN_ID), delivery);

    // Assess
    expect(outcome).toMatchObject({ kind: 'failed', caseId: 'q1' });
    const recorded = await readAttemptError(store, RUN_ID, 'q1');
    expect(recorded?.ok === true ? recorded.value : '').toContain('We encountered an internal error');
  });
});
