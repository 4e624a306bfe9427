import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Progress } from '../../cli/run/progress.js';
import { runPipeline } from '../../cli/run/run-pipeline.js';
import { configFileSchema } from '../../shared/config/index.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import type { ReceivedMessage, WorkQueue } from '../../shared/ports/work-queue.js';
import { expectEveryCaseOnce, FAULT_PLACES, readRunFiles, requestsFor, useFaultRun, writeFaultDataset } from './fault-harness.js';

/**
 * A case delivered again while its first delivery still waits on a slow
 * judge (its visibility ran out: here the drive is told a timeout ten times
 * the queue's, so its heartbeats come too late, as they do on a machine that
 * stalls). In one process the later deliveries share the first one's calls
 * in flight (judgments shared within the run), so the judge is paid once for
 * each passage. The result of the delivery that made the calls is written
 * late, so a later delivery's result stands and ends the run's last case
 * while the first is still writing: the report must wait for it and count
 * its calls (as those of a delivery that wrote no result).
 */
const place = FAULT_PLACES[0];

/** The queue, with the highest receive count it has delivered a message with. */
function countingReceives(queue: WorkQueue): { queue: WorkQueue; highest: () => number } {
  let highest = 0;
  const counted: WorkQueue = {
    name: queue.name,
    sendBatch: (messages) => queue.sendBatch(messages),
    receive: async (options) => {
      const messages: ReceivedMessage[] = await queue.receive(options);
      for (const message of messages) highest = Math.max(highest, message.receiveCount);
      return messages;
    },
    delete: (receiptHandle) => queue.delete(receiptHandle),
    changeVisibility: (receiptHandle, seconds) => queue.changeVisibility(receiptHandle, seconds),
  };
  return { queue: counted, highest: () => highest };
}

/**
 * The store, with the result of the delivery that paid for calls (its judge
 * usage counts calls, where the deliveries that shared them count none) held
 * back until the run's report is written, or for HOLD_MS of the wall if none
 * is: a slow disk or PUT at the worst moment. A drive that reports while that
 * delivery still writes leaves its calls out; one that waits for it waits
 * HOLD_MS.
 */
function paidResultHeldBack(store: ObjectStore): ObjectStore {
  let reportWritten: () => void = () => {};
  const reported = new Promise<void>((resolve) => {
    reportWritten = resolve;
  });
  return new Proxy(store, {
    get(target, property) {
      if (property === 'put') {
        return async (key: string, body: Uint8Array | string, options?: { ifNoneMatch?: boolean }) => {
          if (key.endsWith('/report.json')) reportWritten();
          if (key.includes('/results/') && typeof body === 'string' && /"calls":[1-9]/.test(body))
            await Promise.race([reported, new Promise((resolve) => setTimeout(resolve, HOLD_MS))]);
          return target.put(key, body, options);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const HOLD_MS = 500;

describe('a case delivered again while its first delivery waits on the judge', () => {
  const fault = useFaultRun(place, { simulatedTime: true });

  it('is judged once: the later deliveries share the calls in flight, and the report waits to count every request once', async () => {
    // Prepare: one case of four pooled passages; the judge's first answer takes 3 s, past the queue's 2 s
    const dataset = await writeFaultDataset(fault.folder, 1);
    fault.server.setFaults({ firstFaults: ['slow'], slowMs: 3_000 });
    const infrastructure = await fault.infrastructure('assay-duplicates');
    const cases = countingReceives(infrastructure.cases);
    const store = paidResultHeldBack(infrastructure.store);
    const out = join(fault.folder.path, 'out');

    // Act: four lanes, so a free one takes the case when it comes back
    await runPipeline(
      {
        datasetPath: dataset.path,
        suite: 'duplicates',
        config: configFileSchema.parse({ judges: ['chunk_relevance'] }),
        strict: false,
        noCache: false,
        concurrency: 16,
        outFolder: out,
        environment: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fault.server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' },
      },
      { ...infrastructure, store, cases: cases.queue, visibilityTimeoutSeconds: 10 * infrastructure.visibilityTimeoutSeconds },
      () => new Progress({ write: () => true, isTTY: false } as unknown as NodeJS.WriteStream, () => ({})),
    );

    // Assess: the case came back while the slow answer was awaited, yet each passage was asked once, and counted once
    const files = await readRunFiles(out);
    expect(cases.highest()).toBeGreaterThanOrEqual(2);
    expectEveryCaseOnce(files, dataset);
    expect(requestsFor(fault.server, 'chunk_relevance')).toBe(dataset.uniquePairs);
    const usage = files.report.judges.chunk_relevance;
    expect((usage?.calls ?? 0) + (usage?.retries ?? 0)).toBe(dataset.uniquePairs);
  });
});
