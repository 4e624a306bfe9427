import { describe, expect, it } from 'vitest';
import { InProcessQueue } from '../../../shared/ports/in-process-queue.js';
import type { ReceivedMessage } from '../../../shared/ports/work-queue.js';
import { describeWorkQueueContract } from '../../support/work-queue-contract.js';

// The SQS adapter runs the same contract against fauxqs in test/integration/sqs-queue.test.ts.

describeWorkQueueContract('InProcessQueue', async ({ visibilityTimeoutSeconds, maxReceiveCount }) => {
  const deadLetters = new InProcessQueue('assay-dead-letters', { visibilityTimeoutSeconds });
  const queue = new InProcessQueue('assay-cases', { visibilityTimeoutSeconds, redrive: { deadLetterQueue: deadLetters, maxReceiveCount } });
  return { queue, deadLetters };
});

describe('InProcessQueue at scale and on a stepped clock', () => {
  /** A queue on a clock the test moves by hand. */
  function steppedQueue(maxReceiveCount?: number) {
    let time = 1_000_000;
    const deadLetters = new InProcessQueue('dead-letters', { visibilityTimeoutSeconds: 30, now: () => time });
    const redrive = maxReceiveCount === undefined ? {} : { redrive: { deadLetterQueue: deadLetters, maxReceiveCount } };
    const queue = new InProcessQueue('cases', { visibilityTimeoutSeconds: 30, now: () => time, ...redrive });
    return { queue, deadLetters, advance: (milliseconds: number) => (time += milliseconds) };
  }

  const send = async (queue: InProcessQueue, bodies: readonly string[], delaySeconds = 0) => {
    for (let start = 0; start < bodies.length; start += 10) {
      await queue.sendBatch(bodies.slice(start, start + 10).map((body, index) => ({ id: String(index), body, delaySeconds })));
    }
  };
  const bodiesOf = (messages: readonly ReceivedMessage[]) => messages.map((message) => message.body);

  it('gives visible messages in send order, a message that came back included', async () => {
    // Prepare
    const { queue, advance } = steppedQueue();
    await send(queue, ['a', 'b']);
    const [first] = await queue.receive({ maxMessages: 1, waitSeconds: 0 });
    await send(queue, ['c']);
    await send(queue, ['late'], 10);

    // Act
    advance(30_000);
    const afterTimeout = await queue.receive({ maxMessages: 10, waitSeconds: 0 });

    // Assess
    expect(first?.body).toBe('a');
    expect(bodiesOf(afterTimeout)).toEqual(['a', 'b', 'c', 'late']);
    expect(afterTimeout[0]?.receiveCount).toBe(2);
  });

  it('ignores a stale receipt handle and honours the latest one', async () => {
    const { queue, advance } = steppedQueue();
    await send(queue, ['a']);
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
    const { queue, deadLetters } = steppedQueue(2);
    await send(queue, ['poison']);
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
      await send(queue, Array.from({ length: count }, (_, index) => `case ${index}`));
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

    expect(large / Math.max(small, 1)).toBeLessThan(30);
  });
});
