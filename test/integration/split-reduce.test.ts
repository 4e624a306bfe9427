import { describe, expect, it } from 'vitest';
import { quietTelemetry } from '../support/quiet-telemetry.js';
import { createReducerHandler } from '../../functions/reducer.js';
import { REDUCE_RANGE_SIZE } from '../../shared/report/range-partial.js';
import { REPORT_FILES, reportRun } from '../../shared/reduce/reduce.js';
import type { ControlOutcome } from '../../shared/reduce/control-messages.js';
import { runCompletion } from '../../shared/run/run-completion.js';
import { runKeys } from '../../shared/run/run-identity.js';
import { InProcessQueue } from '../../shared/ports/in-process-queue.js';
import { pollOnce } from '../support/lambda-event-source.js';
import { MemoryStore } from '../../shared/ports/memory-store.js';
import { controlMessageSchema } from '../../shared/schema/pipeline-messages.js';
import { storeRun, syntheticRun } from '../support/synthetic-run.js';
import { steppedClock } from '../support/stepped-queue.js';

/** The reducer on an embedded control queue, with a clock the test moves so delayed checks come due at once. */
function reducerOnQueue(store: MemoryStore) {
  // Past the run's deadline, so its missing cases do not keep the check waiting.
  const time = steppedClock(Date.parse('2025-01-02T05:00:00.000Z'));
  const control = new InProcessQueue('control', { visibilityTimeoutSeconds: 900, clock: time.clock });
  const outcomes: ControlOutcome[] = [];
  const reducer = createReducerHandler(
    { store, control, cases: control, now: () => new Date(time.now()), splitReduceFrom: 1 },
    quietTelemetry(),
  );
  const mapping = {
    queue: control,
    batchSize: 1,
    concurrency: 1,
    handler: async (...args: Parameters<typeof reducer>) => outcomes.push(...(await reducer(...args))),
  };
  return {
    control,
    outcomes,
    /** Delivers messages until the queue is empty, stepping the clock past every delay. */
    drain: async (): Promise<string[]> => {
      const kinds: string[] = [];
      while (control.size > 0) {
        time.advance(120_000);
        kinds.push(
          ...control
            .bodies()
            .map((body) => controlMessageSchema.parse(JSON.parse(body)).kind)
            .slice(0, 1),
        );
        await pollOnce(mapping, 0);
      }
      return kinds;
    },
  };
}

async function reportFiles(store: MemoryStore, suite: string, runId: string): Promise<string[]> {
  return Promise.all(REPORT_FILES.map(async (name) => new TextDecoder().decode(await store.get(runKeys.report(suite, runId, name)))));
}

describe('split reduce', () => {
  it('fans a large run out as reduce-range messages and merges their partials into the report one invocation writes', async () => {
    // Prepare: a finished run of three ranges, and the same run reduced in one process for reference
    const run = await syntheticRun(2 * REDUCE_RANGE_SIZE + 1_003);
    const split = new MemoryStore();
    const single = new MemoryStore();
    await storeRun(split, run);
    await storeRun(single, run);
    const { manifest } = run;
    await reportRun(single, await runCompletion(single, manifest.run_id));
    const queue = reducerOnQueue(split);
    await queue.control.sendBatch([{ id: 'check', body: JSON.stringify({ kind: 'check', run_id: manifest.run_id, attempt: 0 }) }]);

    // Act
    const delivered = await queue.drain();

    // Assess: check -> three ranges -> the check that merges; the files are the single-process ones, byte for byte
    const checks = queue.outcomes.flatMap((outcome) => (outcome.kind === 'checked' ? [outcome.action] : []));
    expect(checks.map((action) => (action.kind === 'wait' ? action.progress.kind : action.kind))).toEqual(['reducing', 'reported']);
    expect(checks[0]).toMatchObject({ progress: { pendingRanges: 3, ranges: 3 } });
    expect(delivered.filter((kind) => kind === 'reduce-range')).toHaveLength(3);
    expect(await reportFiles(split, manifest.suite, manifest.run_id)).toEqual(await reportFiles(single, manifest.suite, manifest.run_id));
  });

  it('reduces each range once more at most when its message is delivered twice, with the same partial', async () => {
    // Prepare
    const store = new MemoryStore();
    const run = await syntheticRun(REDUCE_RANGE_SIZE + 10, store);
    const queue = reducerOnQueue(store);
    const message = JSON.stringify({ kind: 'reduce-range', run_id: run.manifest.run_id, range: 1 });

    // Act: the same range message twice
    await queue.control.sendBatch([{ id: '1', body: message }]);
    await queue.drain();
    const first = await store.get(runKeys.partial(run.manifest.run_id, 1));
    await queue.control.sendBatch([{ id: '1', body: message }]);
    await queue.drain();

    // Assess
    expect(first).toBeDefined();
    expect(await store.get(runKeys.partial(run.manifest.run_id, 1))).toEqual(first);
    expect(queue.outcomes.map((outcome) => outcome.kind)).toEqual(['range-reduced', 'range-reduced']);
  });
});
