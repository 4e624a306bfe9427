import { randomUUID } from 'node:crypto';
import type { OutgoingMessage, ReceiveOptions, ReceivedMessage, WorkQueue } from './work-queue.js';

interface StoredMessage {
  readonly messageId: string;
  readonly body: string;
  readonly sentTimestamp: number;
  visibleAt: number;
  receiveCount: number;
  receiptHandle: string | undefined;
}

export interface InProcessQueueOptions {
  readonly visibilityTimeoutSeconds: number;
  /** With a dead-letter queue: receives after which a message moves there instead of being delivered. */
  readonly redrive?: { readonly deadLetterQueue: InProcessQueue; readonly maxReceiveCount: number };
  /** The clock, in milliseconds; injectable so tests can step time. */
  readonly now?: () => number;
}

/**
 * An in-process WorkQueue with SQS's semantics: visibility timeout, receive
 * counts, redrive to a dead-letter queue after maxReceiveCount, delays, and
 * long polling. Messages come out in send order among those visible.
 */
export class InProcessQueue implements WorkQueue {
  private readonly messages: StoredMessage[] = [];
  private readonly now: () => number;
  private waiters: (() => void)[] = [];

  constructor(
    readonly name: string,
    private readonly options: InProcessQueueOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async sendBatch(messages: readonly OutgoingMessage[]): Promise<{ failed: { id: string; error: string }[] }> {
    if (messages.length > 10) throw new Error(`A batch holds at most 10 messages, got ${messages.length}`);
    for (const message of messages) this.add(message.body, message.delaySeconds ?? 0);
    return { failed: [] };
  }

  async receive(options: ReceiveOptions): Promise<ReceivedMessage[]> {
    const deadline = this.now() + options.waitSeconds * 1000;
    for (;;) {
      const received = this.take(options.maxMessages);
      if (received.length > 0 || this.now() >= deadline) return received;
      await this.waitForChange(Math.min(deadline - this.now(), this.nextVisibleIn() ?? Number.POSITIVE_INFINITY));
    }
  }

  async delete(receiptHandle: string): Promise<void> {
    const index = this.messages.findIndex((message) => message.receiptHandle === receiptHandle);
    // As in SQS, deleting with a stale handle (the message was received again since) is not an error.
    if (index !== -1) this.messages.splice(index, 1);
  }

  async changeVisibility(receiptHandle: string, seconds: number): Promise<void> {
    const message = this.messages.find((candidate) => candidate.receiptHandle === receiptHandle);
    if (message === undefined) return;
    message.visibleAt = this.now() + seconds * 1000;
    this.wake();
  }

  /** Messages in the queue, visible or not: for tests and for knowing when a run has drained. */
  get size(): number {
    return this.messages.length;
  }

  /** Bodies of all messages, visible or not, in send order. */
  bodies(): string[] {
    return this.messages.map((message) => message.body);
  }

  private add(body: string, delaySeconds: number, receiveCount = 0, sentTimestamp = this.now()): void {
    this.messages.push({
      messageId: randomUUID(),
      body,
      sentTimestamp,
      visibleAt: this.now() + delaySeconds * 1000,
      receiveCount,
      receiptHandle: undefined,
    });
    this.wake();
  }

  private take(maxMessages: number): ReceivedMessage[] {
    const received: ReceivedMessage[] = [];
    const now = this.now();
    for (const message of [...this.messages]) {
      if (received.length >= maxMessages) break;
      if (message.visibleAt > now) continue;
      const redrive = this.options.redrive;
      if (redrive !== undefined && message.receiveCount >= redrive.maxReceiveCount) {
        // Moved on its next receive, as SQS does: the dead-letter queue keeps the original send time.
        this.messages.splice(this.messages.indexOf(message), 1);
        redrive.deadLetterQueue.add(message.body, 0, message.receiveCount, message.sentTimestamp);
        continue;
      }
      message.receiveCount += 1;
      message.receiptHandle = randomUUID();
      message.visibleAt = now + this.options.visibilityTimeoutSeconds * 1000;
      received.push({
        messageId: message.messageId,
        receiptHandle: message.receiptHandle,
        body: message.body,
        receiveCount: message.receiveCount,
        sentTimestamp: message.sentTimestamp,
      });
    }
    return received;
  }

  private nextVisibleIn(): number | undefined {
    if (this.messages.length === 0) return undefined;
    const now = this.now();
    return Math.max(0, Math.min(...this.messages.map((message) => message.visibleAt)) - now);
  }

  private waitForChange(milliseconds: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(1, Math.min(milliseconds, 1_000)));
      const waiter = (): void => done();
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.waiters.push(waiter);
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }
}
