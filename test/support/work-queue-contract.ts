import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { OutgoingMessage, ReceivedMessage, WorkQueue } from '../../shared/ports/work-queue.js';

/** The settings every contract check creates its queues with: short, so the checks run on real time. */
export const CONTRACT_QUEUE_SETTINGS = { visibilityTimeoutSeconds: 1, maxReceiveCount: 2 } as const;

export interface ContractQueues {
  /** Redrives to `deadLetters` after CONTRACT_QUEUE_SETTINGS.maxReceiveCount receives. */
  readonly queue: WorkQueue;
  readonly deadLetters: WorkQueue;
}

/** A visibility timeout plus enough slack for a remote clock and a busy machine. */
const PAST_VISIBILITY_MS = CONTRACT_QUEUE_SETTINGS.visibilityTimeoutSeconds * 1000 + 250;
/** Tolerated difference between the queue's clock and ours, for sentTimestamp. */
const CLOCK_SLACK_MS = 2_000;

const messages = (...bodies: string[]): OutgoingMessage[] => bodies.map((body, index) => ({ id: `m${index}`, body }));

/** Receives until `count` messages arrived or `waitSeconds` passed: SQS may return fewer than asked per call. */
async function receiveAll(queue: WorkQueue, count: number, waitSeconds = 2): Promise<ReceivedMessage[]> {
  const deadline = Date.now() + waitSeconds * 1000;
  const received: ReceivedMessage[] = [];
  while (received.length < count && Date.now() < deadline) {
    received.push(...(await queue.receive({ maxMessages: Math.min(10, count - received.length), waitSeconds: 1 })));
  }
  return received;
}

/** What every WorkQueue adapter must do, against queues made fresh for each check. */
export function describeWorkQueueContract(
  name: string,
  createQueues: (settings: typeof CONTRACT_QUEUE_SETTINGS) => Promise<ContractQueues>,
): void {
  describe(`${name} (WorkQueue contract)`, () => {
    it('ends a long poll at once, with no messages, when its signal aborts', async () => {
      // Prepare: an empty queue and a poll that would wait up to 10 s
      const { queue } = await createQueues(CONTRACT_QUEUE_SETTINGS);
      const polls = new AbortController();
      const started = Date.now();

      // Act
      const waiting = queue.receive({ maxMessages: 10, waitSeconds: 10, signal: polls.signal });
      await sleep(200);
      polls.abort();
      const received = await waiting;

      // Assess
      expect(received).toEqual([]);
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it('delivers a sent message once per visibility timeout, and never again once deleted', async () => {
      const { queue } = await createQueues(CONTRACT_QUEUE_SETTINGS);
      const before = Date.now();

      expect(await queue.sendBatch(messages('case q1'))).toEqual({ failed: [] });
      const [received] = await receiveAll(queue, 1);
      const whileHidden = await queue.receive({ maxMessages: 10, waitSeconds: 0 });
      await queue.delete(received?.receiptHandle ?? '');
      await sleep(PAST_VISIBILITY_MS);
      const afterTimeout = await queue.receive({ maxMessages: 10, waitSeconds: 0 });

      expect(received).toMatchObject({ body: 'case q1', receiveCount: 1 });
      expect(received?.messageId).not.toBe('');
      expect(received?.sentTimestamp).toBeGreaterThanOrEqual(before - CLOCK_SLACK_MS);
      expect(received?.sentTimestamp).toBeLessThanOrEqual(Date.now() + CLOCK_SLACK_MS);
      expect(whileHidden).toEqual([]);
      expect(afterTimeout).toEqual([]);
    });

    it('brings an undeleted message back after the visibility timeout, with receiveCount 2', async () => {
      const { queue } = await createQueues(CONTRACT_QUEUE_SETTINGS);
      await queue.sendBatch(messages('case q2'));
      const [first] = await receiveAll(queue, 1);

      await sleep(PAST_VISIBILITY_MS);
      const [second] = await receiveAll(queue, 1);

      expect(second).toMatchObject({ messageId: first?.messageId, body: 'case q2', receiveCount: 2, sentTimestamp: first?.sentTimestamp });
      expect(second?.receiptHandle).not.toBe(first?.receiptHandle);
    });

    it('makes a message visible at once with changeVisibility(0)', async () => {
      const { queue } = await createQueues(CONTRACT_QUEUE_SETTINGS);
      await queue.sendBatch(messages('case q3'));
      const [first] = await receiveAll(queue, 1);

      await queue.changeVisibility(first?.receiptHandle ?? '', 0);
      const again = await queue.receive({ maxMessages: 10, waitSeconds: 0 });

      expect(again).toHaveLength(1);
      expect(again[0]).toMatchObject({ messageId: first?.messageId, receiveCount: 2 });
    });

    it('hides a message sent with DelaySeconds until the delay has passed', async () => {
      const { queue } = await createQueues(CONTRACT_QUEUE_SETTINGS);
      const sentAt = Date.now();

      await queue.sendBatch([{ id: 'check', body: 'check run r1', delaySeconds: 1 }]);
      const early = await queue.receive({ maxMessages: 10, waitSeconds: 0 });
      const [late] = await receiveAll(queue, 1, 3);

      expect(early).toEqual([]);
      expect(late).toMatchObject({ body: 'check run r1', receiveCount: 1 });
      // Allows for whole-second rounding of the delay on the queue's side.
      expect(Date.now() - sentAt).toBeGreaterThanOrEqual(900);
    });

    it('moves a message to the dead-letter queue on the receive after maxReceiveCount', async () => {
      const { queue, deadLetters } = await createQueues(CONTRACT_QUEUE_SETTINGS);
      await queue.sendBatch(messages('poison case'));

      const receiveCounts: number[] = [];
      let sentTimestamp: number | undefined;
      for (let attempt = 0; attempt < CONTRACT_QUEUE_SETTINGS.maxReceiveCount; attempt += 1) {
        const [received] = await receiveAll(queue, 1);
        receiveCounts.push(received?.receiveCount ?? 0);
        sentTimestamp = received?.sentTimestamp;
        // A failed attempt: give the message back at once instead of waiting out the timeout.
        await queue.changeVisibility(received?.receiptHandle ?? '', 0);
      }
      const afterLimit = await queue.receive({ maxMessages: 10, waitSeconds: 0 });
      const [deadLetter] = await receiveAll(deadLetters, 1);

      expect(receiveCounts).toEqual([1, 2]);
      expect(afterLimit).toEqual([]);
      expect(deadLetter).toMatchObject({ body: 'poison case', sentTimestamp });
    });

    it('sends a batch of 10 and delivers each message once', async () => {
      const { queue } = await createQueues(CONTRACT_QUEUE_SETTINGS);
      const bodies = Array.from({ length: 10 }, (_, index) => `case q${index}`);

      const result = await queue.sendBatch(messages(...bodies));
      const received = await receiveAll(queue, 10);

      expect(result).toEqual({ failed: [] });
      expect(received.map((message) => message.body).sort()).toEqual([...bodies].sort());
      expect(new Set(received.map((message) => message.messageId)).size).toBe(10);
    });
  });
}
