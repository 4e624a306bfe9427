/**
 * A work queue with SQS's semantics, so the embedded default and AWS behave
 * alike: at-least-once delivery; a received message is hidden for the
 * visibility timeout and comes back unless deleted; after maxReceiveCount
 * receives it moves to the dead-letter queue; a message can be delayed.
 * Adapters: in-process (in-process-queue.ts) and SQS.
 */
export interface OutgoingMessage {
  /** Unique within one sendBatch call. */
  readonly id: string;
  readonly body: string;
  readonly delaySeconds?: number;
}

export interface ReceivedMessage {
  readonly messageId: string;
  readonly receiptHandle: string;
  readonly body: string;
  /** How many times the message has been received, this time included. */
  readonly receiveCount: number;
  /** When the message was first sent, in epoch milliseconds. */
  readonly sentTimestamp: number;
}

export interface ReceiveOptions {
  readonly maxMessages: number;
  /** Long polling: wait up to this long for a first message. */
  readonly waitSeconds: number;
  /** Ends a long poll early, with no messages: a poller that has nothing left to do stops at once. */
  readonly signal?: AbortSignal;
}

export interface WorkQueue {
  /** The queue's name: in what is said of it, and at the end of the `eventSourceARN` of the tests' fabricated events. */
  readonly name: string;
  /** Sends up to 10 messages; returns the ids that failed, with why. */
  sendBatch(messages: readonly OutgoingMessage[]): Promise<{ failed: { id: string; error: string }[] }>;
  receive(options: ReceiveOptions): Promise<ReceivedMessage[]>;
  delete(receiptHandle: string): Promise<void>;
  /** Makes a received message visible again after `seconds` (0: at once). */
  changeVisibility(receiptHandle: string, seconds: number): Promise<void>;
}

/** SQS's limit on one SendMessageBatch. */
export const MAX_BATCH_MESSAGES = 10;

/** Sends any number of messages in batches of 10, failing loudly if any message is refused. */
export async function sendAll(queue: WorkQueue, messages: readonly OutgoingMessage[]): Promise<void> {
  for (let start = 0; start < messages.length; start += MAX_BATCH_MESSAGES) {
    const batch = messages.slice(start, start + MAX_BATCH_MESSAGES);
    const { failed } = await queue.sendBatch(batch);
    if (failed.length > 0) {
      throw new Error(`The ${queue.name} queue refused ${failed.length} of ${batch.length} messages: ${failed[0]?.error}`);
    }
  }
}
