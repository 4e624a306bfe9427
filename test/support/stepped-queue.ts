import { systemClock, type Clock } from '../../shared/ports/clock.js';
import { InProcessQueue, type InProcessQueueOptions } from '../../shared/ports/in-process-queue.js';
import type { ReceivedMessage, WorkQueue } from '../../shared/ports/work-queue.js';

type Spool = NonNullable<InProcessQueueOptions['spool']>;

/** Time that stands where the test puts it (`advance`), while a wait still waits on the wall: for queues a test steps by hand. */
export function steppedClock(start: number): { readonly clock: Clock; now(): number; advance(milliseconds: number): number } {
  let time = start;
  return {
    clock: { now: () => time, sleep: systemClock.sleep },
    now: () => time,
    advance: (milliseconds) => (time += milliseconds),
  };
}

/** A cases queue (and its dead-letter queue) on a clock the test moves by hand, visibility timeout 30 s; spooling when given spools. */
export function steppedQueue(
  options: { readonly spool?: Spool; readonly deadLetterSpool?: Spool; readonly maxReceiveCount?: number } = {},
) {
  const { clock, advance } = steppedClock(1_000_000);
  const deadLetters = new InProcessQueue('dead-letters', {
    visibilityTimeoutSeconds: 30,
    clock,
    ...(options.deadLetterSpool === undefined ? {} : { spool: options.deadLetterSpool }),
  });
  const redrive =
    options.maxReceiveCount === undefined ? {} : { redrive: { deadLetterQueue: deadLetters, maxReceiveCount: options.maxReceiveCount } };
  const queue = new InProcessQueue('cases', {
    visibilityTimeoutSeconds: 30,
    clock,
    ...(options.spool === undefined ? {} : { spool: options.spool }),
    ...redrive,
  });
  return { queue, deadLetters, advance };
}

/** Sends the bodies in batches of ten, in order. */
export async function sendBodies(queue: InProcessQueue, bodies: readonly string[], delaySeconds = 0): Promise<void> {
  for (let start = 0; start < bodies.length; start += 10) {
    await queue.sendBatch(bodies.slice(start, start + 10).map((body, index) => ({ id: String(index), body, delaySeconds })));
  }
}

export const bodiesOf = (messages: readonly ReceivedMessage[]): string[] => messages.map((message) => message.body);

/** Receives and deletes every message of a queue: what a process that died took with it. */
export async function drainQueue(queue: WorkQueue): Promise<void> {
  for (;;) {
    const messages = await queue.receive({ maxMessages: 10, waitSeconds: 0 });
    if (messages.length === 0) return;
    for (const message of messages) await queue.delete(message.receiptHandle);
  }
}
