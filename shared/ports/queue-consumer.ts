import { systemClock, type Clock } from './clock.js';
import type { ReceivedMessage, WorkQueue } from './work-queue.js';

/**
 * A queue's messages handed to a step, as a consumer on one machine (or
 * against any SQS endpoint) takes them: up to `batchSize` received at once,
 * given to `handle`, which answers the ids of those to be delivered again
 * (a transient failure); the others are deleted. A message left undeleted
 * comes back after the visibility timeout, and the queue's redrive policy
 * moves it to the dead-letter queue after maxReceiveCount. A handler that
 * throws (a bug) leaves the whole batch to come back, and is told to
 * `onHandlerError`. This is what Lambda's SQS event source mapping does with
 * partial batch responses, without its event shapes: the steps take plain
 * messages, and only functions/ speaks Lambda's wire.
 */
export interface QueueConsumer {
  readonly queue: WorkQueue;
  /** Handles received messages; resolves with the ids of those to be delivered again. */
  readonly handle: (messages: readonly ReceivedMessage[]) => Promise<ReadonlySet<string>>;
  readonly batchSize: number;
  /** Batches handled at once. */
  readonly concurrency: number;
  readonly onHandlerError?: (error: unknown) => void;
  /**
   * The queue's visibility timeout. With it, messages whose batch is still
   * being handled are hidden again every third of it (a heartbeat), so a slow
   * judge never gets its case delivered to a second worker.
   */
  readonly visibilityTimeoutSeconds?: number;
  /** Told when a heartbeat could not extend a message's visibility (the message may come back early). */
  readonly onHeartbeatError?: (error: unknown) => void;
}

/** One receive of one consumer: returns how many messages were handled. */
export async function consumeOnce(
  consumer: QueueConsumer,
  waitSeconds: number,
  signal?: AbortSignal,
  clock: Clock = systemClock,
): Promise<number> {
  const messages = await consumer.queue.receive({
    maxMessages: consumer.batchSize,
    waitSeconds,
    ...(signal === undefined ? {} : { signal }),
  });
  if (messages.length === 0) return 0;
  let again: ReadonlySet<string>;
  const heartbeat = startHeartbeat(consumer, messages, clock);
  try {
    again = await consumer.handle(messages);
  } catch (error) {
    consumer.onHandlerError?.(error);
    again = new Set(messages.map((message) => message.messageId));
  } finally {
    await heartbeat.stop();
  }
  for (const message of messages) {
    if (!again.has(message.messageId)) await consumer.queue.delete(message.receiptHandle);
  }
  return messages.length;
}

/**
 * Extends the visibility of a batch's messages while its handler runs, as a
 * worker should for work that may outlast the timeout (SQS's advice; on
 * Lambda the queue's timeout is set to six times the function's instead).
 */
function startHeartbeat(consumer: QueueConsumer, messages: readonly ReceivedMessage[], clock: Clock): { stop(): Promise<void> } {
  const timeout = consumer.visibilityTimeoutSeconds;
  if (timeout === undefined) return { stop: async () => {} };
  const stopped = new AbortController();
  const period = (timeout * 1000) / 3;
  const beating = (async () => {
    // On a fixed cadence: a beat that takes long (a busy endpoint) does not push the next one later.
    let next = clock.now() + period;
    for (;;) {
      await clock.sleep(Math.max(0, next - clock.now()), stopped.signal);
      if (stopped.signal.aborted) return;
      next += period;
      for (const message of messages) {
        await consumer.queue.changeVisibility(message.receiptHandle, timeout).catch((error: unknown) => consumer.onHeartbeatError?.(error));
      }
    }
  })();
  return {
    async stop() {
      stopped.abort();
      await beating;
    },
  };
}

/**
 * Runs every consumer until `finished()` says so. Each consumer handles up to
 * its concurrency of batches at once; an empty receive long-polls for
 * `waitSeconds`, so an idle loop costs nothing. Aborting `signal` when the
 * work is finished ends the long polls in progress, instead of waiting them out.
 */
export async function runConsumers(
  consumers: readonly QueueConsumer[],
  finished: () => boolean,
  options: { readonly waitSeconds?: number; readonly signal?: AbortSignal; readonly clock?: Clock } = {},
): Promise<void> {
  const lanes = consumers.flatMap((consumer) => Array.from({ length: consumer.concurrency }, () => consumer));
  await Promise.all(
    lanes.map(async (consumer) => {
      while (!finished()) await consumeOnce(consumer, options.waitSeconds ?? 1, options.signal, options.clock);
    }),
  );
}
