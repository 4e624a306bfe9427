import { randomUUID } from 'node:crypto';
import TinyQueue from 'tinyqueue';
import { systemClock, type Clock } from './clock.js';
import { MessageSpool, SPOOL_SEGMENT_BYTES, type QueueSpoolOptions, type SpooledMessage } from './message-spool.js';
import type { OutgoingMessage, ReceiveOptions, ReceivedMessage, WorkQueue } from './work-queue.js';

interface StoredMessage {
  readonly messageId: string;
  /** Send order: visible messages come out lowest first. */
  readonly sequence: number;
  /** Emptied once the message is deleted or moved (forget). */
  body: string;
  /** The body's size in bytes, counted against the spool's memory bound. */
  readonly bytes: number;
  readonly sentTimestamp: number;
  visibleAt: number;
  receiveCount: number;
  receiptHandle: string | undefined;
  /** Bumped on every change, so heap entries made before it are known to be stale. */
  version: number;
}

/** A heap entry: the message as it was when the entry was pushed (a heap's keys must not change inside it). */
interface Scheduled {
  readonly message: StoredMessage;
  readonly version: number;
  readonly visibleAt: number;
}

export interface InProcessQueueOptions {
  readonly visibilityTimeoutSeconds: number;
  /** With a dead-letter queue: receives after which a message moves there instead of being delivered. */
  readonly redrive?: { readonly deadLetterQueue: InProcessQueue; readonly maxReceiveCount: number };
  /** The queue's time (visibility, delays, long polls): the wall's by default; a test steps it, or simulates it. */
  readonly clock?: Clock;
  /** With a spool: messages past `memoryBytes` of bodies held wait on disk (message-spool.ts). */
  readonly spool?: QueueSpoolOptions;
}

/**
 * An in-process WorkQueue with SQS's semantics: visibility timeout, receive
 * counts, redrive to a dead-letter queue after maxReceiveCount, delays, and
 * long polling. Messages come out in send order among those visible.
 *
 * Every operation costs O(log n) whatever the number of messages held: the
 * visible messages wait in a heap by send order, the hidden ones (delayed or
 * received) in a heap by the time they become visible, and the received ones
 * are found by receipt handle in a map. A change leaves the old heap entry in
 * place and bumps the message's version; entries whose version is behind are
 * skipped when they surface.
 *
 * With a spool, the queue holds at most `memoryBytes` of message bodies
 * whatever the number of messages: once that much is held, a message sent
 * without a delay goes to the spool on disk (message-spool.ts), and so does
 * every one after it until the spool is empty again, so the spool keeps send
 * order. A receive takes the spool's oldest message into memory when it is
 * the next visible one in send order, so delivery order, visibility, receive
 * counts and redrive are the same as without a spool. Delayed and received
 * messages stay in memory: there are only as many as the workers have in hand.
 */
export class InProcessQueue implements WorkQueue {
  /** Every message held in memory. */
  private readonly messages = new Map<string, StoredMessage>();
  private readonly visible = new TinyQueue<Scheduled>([], (left, right) => left.message.sequence - right.message.sequence);
  private readonly hidden = new TinyQueue<Scheduled>(
    [],
    (left, right) => left.visibleAt - right.visibleAt || left.message.sequence - right.message.sequence,
  );
  /** Received messages by their latest receipt handle. */
  private readonly received = new Map<string, StoredMessage>();
  private readonly clock: Clock;
  private waiters: (() => void)[] = [];
  private sent = 0;
  private readonly spool: MessageSpool | undefined;
  /** Bytes of bodies held in memory: past the spool's memoryBytes, messages go to the spool. */
  private heldBytes = 0;

  constructor(
    readonly name: string,
    private readonly options: InProcessQueueOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    const spool = options.spool;
    this.spool =
      spool === undefined
        ? undefined
        : new MessageSpool(name, { folder: spool.folder, segmentBytes: spool.segmentBytes ?? SPOOL_SEGMENT_BYTES });
  }

  async sendBatch(messages: readonly OutgoingMessage[]): Promise<{ failed: { id: string; error: string }[] }> {
    if (messages.length > 10) throw new Error(`A batch holds at most 10 messages, got ${messages.length}`);
    for (const message of messages) this.add(message.body, message.delaySeconds ?? 0);
    return { failed: [] };
  }

  async receive(options: ReceiveOptions): Promise<ReceivedMessage[]> {
    const deadline = this.now() + options.waitSeconds * 1000;
    for (;;) {
      if (options.signal?.aborted === true) return [];
      const received = this.take(options.maxMessages);
      if (received.length > 0 || this.now() >= deadline) return received;
      await this.waitForChange(Math.min(deadline - this.now(), this.nextVisibleIn() ?? Number.POSITIVE_INFINITY), options.signal);
    }
  }

  async delete(receiptHandle: string): Promise<void> {
    // As in SQS, deleting with a stale handle (the message was received again since) is not an error.
    const message = this.received.get(receiptHandle);
    if (message === undefined) return;
    this.received.delete(receiptHandle);
    this.forget(message);
  }

  async changeVisibility(receiptHandle: string, seconds: number): Promise<void> {
    const message = this.received.get(receiptHandle);
    if (message === undefined) return;
    this.schedule(message, this.now() + seconds * 1000);
    this.wake();
  }

  /** Messages in the queue, visible or not, spooled ones included: for tests and for knowing when a run has drained. */
  get size(): number {
    return this.messages.size + (this.spool?.length ?? 0);
  }

  /** Bytes of message bodies held in memory (the spooled ones are not). */
  get bytesInMemory(): number {
    return this.heldBytes;
  }

  /** Bodies of all messages, visible or not, spooled ones included, in send order. */
  bodies(): string[] {
    const held = [...this.messages.values()].map(({ sequence, body }) => ({ sequence, body }));
    return [...held, ...(this.spool?.peekAll() ?? [])].sort((left, right) => left.sequence - right.sequence).map((message) => message.body);
  }

  private add(body: string, delaySeconds: number, receiveCount = 0, sentTimestamp = this.now()): void {
    const sequence = this.sent++;
    const bytes = this.spool === undefined ? 0 : Buffer.byteLength(body);
    const sent = { sequence, body, bytes, sentTimestamp, receiveCount };
    if (
      this.spool !== undefined &&
      delaySeconds <= 0 &&
      (this.spool.length > 0 || this.heldBytes + bytes > (this.options.spool?.memoryBytes ?? 0))
    )
      this.spool.append(sent);
    else this.hold(sent, this.now() + delaySeconds * 1000);
    this.wake();
  }

  /** Keeps a message in memory, visible from `visibleAt`. */
  private hold(sent: SpooledMessage, visibleAt: number): void {
    const message: StoredMessage = { messageId: randomUUID(), ...sent, visibleAt: 0, receiptHandle: undefined, version: 0 };
    this.messages.set(message.messageId, message);
    this.heldBytes += sent.bytes;
    this.schedule(message, visibleAt);
  }

  /** Puts the message in the heap its visibility calls for; older entries of it become stale. */
  private schedule(message: StoredMessage, visibleAt: number): void {
    message.visibleAt = visibleAt;
    message.version += 1;
    const entry = { message, version: message.version, visibleAt };
    if (visibleAt <= this.now()) this.visible.push(entry);
    else this.hidden.push(entry);
  }

  private take(maxMessages: number): ReceivedMessage[] {
    const now = this.now();
    this.revealDue(now);
    const received: ReceivedMessage[] = [];
    while (received.length < maxMessages) {
      this.loadSpooled(now);
      const entry = this.visible.pop();
      if (entry === undefined) break;
      const { message } = entry;
      if (entry.version !== message.version) continue;
      const redrive = this.options.redrive;
      if (redrive !== undefined && message.receiveCount >= redrive.maxReceiveCount) {
        // Moved on its next receive, as SQS does: the dead-letter queue keeps the original send time.
        const { body } = message;
        this.forget(message);
        redrive.deadLetterQueue.add(body, 0, message.receiveCount, message.sentTimestamp);
        continue;
      }
      if (message.receiptHandle !== undefined) this.received.delete(message.receiptHandle);
      message.receiveCount += 1;
      message.receiptHandle = randomUUID();
      this.received.set(message.receiptHandle, message);
      this.schedule(message, now + this.options.visibilityTimeoutSeconds * 1000);
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

  /** Moves the hidden messages whose time has come to the visible heap. */
  private revealDue(now: number): void {
    for (
      let entry = this.hidden.peek();
      entry !== undefined && (entry.version !== entry.message.version || entry.visibleAt <= now);
      entry = this.hidden.peek()
    ) {
      this.hidden.pop();
      if (entry.version === entry.message.version) this.visible.push(entry);
    }
  }

  /** Takes the spool's oldest message into memory when it is the next visible one in send order. */
  private loadSpooled(now: number): void {
    const next = this.spool?.nextSequence();
    if (next === undefined) return;
    const first = this.freshVisible();
    if (first !== undefined && first.message.sequence < next) return;
    const message = this.spool?.takeNext();
    if (message !== undefined) this.hold(message, now);
  }

  /** The visible heap's first entry that is not stale, the stale ones before it dropped. */
  private freshVisible(): Scheduled | undefined {
    let entry = this.visible.peek();
    while (entry !== undefined && entry.version !== entry.message.version) {
      this.visible.pop();
      entry = this.visible.peek();
    }
    return entry;
  }

  private forget(message: StoredMessage): void {
    this.messages.delete(message.messageId);
    this.heldBytes -= message.bytes;
    if (message.receiptHandle !== undefined) this.received.delete(message.receiptHandle);
    message.version += 1;
    // Its stale heap entries keep the message until they surface, seconds later: long enough for a
    // body kept with it to outlive the young generation, and so to wait for a full collection.
    message.body = '';
  }

  private now(): number {
    return this.clock.now();
  }

  private nextVisibleIn(): number | undefined {
    const now = this.now();
    this.revealDue(now);
    if (this.visible.length > 0 || (this.spool?.length ?? 0) > 0) return 0;
    const next = this.hidden.peek();
    return next === undefined ? undefined : Math.max(0, next.visibleAt - now);
  }

  /** Waits until the queue changes (a send, a visibility change), `signal` aborts, or `milliseconds` (at most a second) pass. */
  private async waitForChange(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted === true) return;
    const changed = new AbortController();
    const stop = (): void => changed.abort();
    this.waiters.push(stop);
    signal?.addEventListener('abort', stop, { once: true });
    try {
      await this.clock.sleep(Math.max(1, Math.min(milliseconds, 1_000)), changed.signal);
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }
}
