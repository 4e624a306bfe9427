import { describe, expect, it } from 'vitest';
import { InProcessQueue } from '../../../shared/ports/in-process-queue.js';
import { sendBodies, steppedQueue } from '../../support/stepped-queue.js';
import { SimulatedClock } from '../../support/simulated-clock.js';
import { describeWorkQueueContract } from '../../support/work-queue-contract.js';

// The SQS adapter runs the same contract against fauxqs in test/integration/sqs-queue.test.ts.

describeWorkQueueContract('InProcessQueue', async ({ visibilityTimeoutSeconds, maxReceiveCount }) => {
  const deadLetters = new InProcessQueue('assay-dead-letters', { visibilityTimeoutSeconds });
  const queue = new InProcessQueue('assay-cases', { visibilityTimeoutSeconds, redrive: { deadLetterQueue: deadLetters, maxReceiveCount } });
  return { queue, deadLetters };
});

describe('InProcessQueue at scale and on a stepped clock', () => {
  it('ignores a stale receipt handle and honours the latest one', async () => {
    const { queue, advance } = steppedQueue();
    await sendBodies(queue, ['a']);
    const [first] = await queue.receive({ maxMessages: 1, waitSeconds: 0 });
    advance(30_000);
    const [second] = await queue.receive({ maxMessages: 1, waitSeconds: 0 });

    await queue.delete(first?.receiptHandle ?? '');
    await queue.changeVisibility(first?.receiptHandle ?? '', 0);
    const whileHidden = await queue.receive({ maxMessages: 1, waitSeconds: 0 });
    await queue.delete(second?.receiptHandle ?? '');

    expect(whileHidden).toEqual([]);
    expect(queue.size).toBe(0);
  });

  it('moves a message to the dead-letter queue on the receive after maxReceiveCount', async () => {
    const { queue, deadLetters } = steppedQueue({ maxReceiveCount: 2 });
    await sendBodies(queue, ['poison']);
    for (let attempt = 0; attempt < 2; attempt++) {
      const [received] = await queue.receive({ maxMessages: 1, waitSeconds: 0 });
      await queue.changeVisibility(received?.receiptHandle ?? '', 0);
    }

    const afterLimit = await queue.receive({ maxMessages: 1, waitSeconds: 0 });

    expect(afterLimit).toEqual([]);
    expect(queue.size).toBe(0);
    expect(deadLetters.bodies()).toEqual(['poison']);
  });

  it('drains ten times as many messages in about ten times the time, not a hundred', async () => {
    // Each message is received while all the others are held, then deleted: the work of an
    // O(n) scan per operation grows with the square of the messages.
    async function drain(count: number): Promise<number> {
      const { queue } = steppedQueue();
      await sendBodies(
        queue,
        Array.from({ length: count }, (_, index) => `case ${index}`),
      );
      const started = performance.now();
      for (;;) {
        const received = await queue.receive({ maxMessages: 10, waitSeconds: 0 });
        if (received.length === 0) break;
        for (const message of received) await queue.delete(message.receiptHandle);
      }
      const elapsed = performance.now() - started;
      expect(queue.size).toBe(0);
      return elapsed;
    }
    const fastest = async (count: number) => Math.min(await drain(count), await drain(count), await drain(count));

    const small = await fastest(4_000);
    const large = await fastest(40_000);

    // Idle, the ratio is 9 to 13; a scan per operation makes it about 100. The bound sits between,
    // clear of both: with the suite's other files on the same cores, the short drain's best time
    // moves the most (30.4 was measured once in a loaded CI run against a bound of 30).
    expect(large / Math.max(small, 1)).toBeLessThan(50);
  });
});

describe('InProcessQueue on a simulated clock', () => {
  it('long-polls on its clock: a delayed message comes once the clock reaches its delay, without the wall time', async () => {
    // Prepare: a message delayed 30 s of the queue's (simulated) time
    const clock = new SimulatedClock(0);
    const queue = new InProcessQueue('assay-cases', { visibilityTimeoutSeconds: 10, clock });
    await queue.sendBatch([{ id: '0', body: 'later', delaySeconds: 30 }]);
    const wallStarted = performance.now();

    // Act
    const received = await queue.receive({ maxMessages: 10, waitSeconds: 60 });

    // Assess: delivered at 30 s on the clock, not sooner nor at the end of the poll; the wall spent no 30 s on it
    expect(received.map((message) => message.body)).toEqual(['later']);
    expect(clock.now()).toBe(30_000);
    expect(performance.now() - wallStarted).toBeLessThan(10_000);
    clock.stop();
  });

  it('delivers a received message again when the clock passes its visibility timeout, and a heartbeat on the clock keeps it hidden', async () => {
    // Prepare: a message received at 0 s, hidden for 10 s
    const clock = new SimulatedClock(0);
    const queue = new InProcessQueue('assay-cases', { visibilityTimeoutSeconds: 10, clock });
    await sendBodies(queue, ['case']);
    const [first] = await queue.receive({ maxMessages: 1, waitSeconds: 0 });

    // Act: 8 s later its visibility is extended by 10 s; a long poll then waits for it
    await clock.sleep(8_000);
    await queue.changeVisibility(first?.receiptHandle ?? '', 10);
    const again = await queue.receive({ maxMessages: 1, waitSeconds: 20 });

    // Assess: back at 18 s on the clock, its second receive
    expect(again.map((message) => [message.body, message.receiveCount])).toEqual([['case', 2]]);
    expect(clock.now()).toBe(18_000);
    clock.stop();
  });
});
