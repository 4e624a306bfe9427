import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type ReceiveMessageCommandOutput,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { MAX_BATCH_MESSAGES, type OutgoingMessage, type ReceiveOptions, type ReceivedMessage, type WorkQueue } from './work-queue.js';

/** SQS's bounds on one ReceiveMessage call: asking for more gets the most SQS allows, since callers loop anyway. */
const MAX_RECEIVE_MESSAGES = 10;
const MAX_WAIT_SECONDS = 20;

/** A WorkQueue over an SQS queue (or any SQS-compatible service), addressed by its URL. */
export class SqsQueue implements WorkQueue {
  constructor(
    private readonly client: SQSClient,
    readonly url: string,
    readonly name: string,
  ) {}

  async sendBatch(messages: readonly OutgoingMessage[]): Promise<{ failed: { id: string; error: string }[] }> {
    if (messages.length === 0) return { failed: [] };
    if (messages.length > MAX_BATCH_MESSAGES) {
      throw new Error(`Expected at most ${MAX_BATCH_MESSAGES} messages in one batch, got ${messages.length}`);
    }
    const result = await this.client.send(
      new SendMessageBatchCommand({
        QueueUrl: this.url,
        Entries: messages.map((message) => ({
          Id: message.id,
          MessageBody: message.body,
          ...(message.delaySeconds === undefined ? {} : { DelaySeconds: message.delaySeconds }),
        })),
      }),
    );
    return {
      failed: (result.Failed ?? []).map((entry) => ({
        id: entry.Id ?? '',
        error: `${entry.Code ?? 'Unknown'}: ${entry.Message ?? 'no message'}${entry.SenderFault ? ' (sender fault)' : ''}`,
      })),
    };
  }

  async receive(options: ReceiveOptions): Promise<ReceivedMessage[]> {
    if (isAborted(options.signal)) return [];
    const command = new ReceiveMessageCommand({
      QueueUrl: this.url,
      MaxNumberOfMessages: clamp(options.maxMessages, 1, MAX_RECEIVE_MESSAGES),
      WaitTimeSeconds: clamp(Math.ceil(options.waitSeconds), 0, MAX_WAIT_SECONDS),
      MessageSystemAttributeNames: ['ApproximateReceiveCount', 'SentTimestamp'],
    });
    let result: ReceiveMessageCommandOutput;
    try {
      result = await this.client.send(command, options.signal === undefined ? {} : { abortSignal: options.signal });
    } catch (error) {
      // A long poll ended by its poller: nothing was received (a message SQS hid meanwhile comes back after its timeout).
      if (isAborted(options.signal)) return [];
      throw error;
    }
    return (result.Messages ?? []).map((message) => {
      if (message.MessageId === undefined || message.ReceiptHandle === undefined || message.Body === undefined) {
        throw new Error(`The ${this.name} queue returned a message without an id, receipt handle or body`);
      }
      return {
        messageId: message.MessageId,
        receiptHandle: message.ReceiptHandle,
        body: message.Body,
        receiveCount: Number(message.Attributes?.ApproximateReceiveCount ?? '1'),
        sentTimestamp: Number(message.Attributes?.SentTimestamp ?? Date.now()),
      };
    });
  }

  async delete(receiptHandle: string): Promise<void> {
    await this.client.send(new DeleteMessageCommand({ QueueUrl: this.url, ReceiptHandle: receiptHandle }));
  }

  async changeVisibility(receiptHandle: string, seconds: number): Promise<void> {
    await this.client.send(
      new ChangeMessageVisibilityCommand({ QueueUrl: this.url, ReceiptHandle: receiptHandle, VisibilityTimeout: seconds }),
    );
  }
}

function clamp(value: number, minimum: number, maximum: number): number {
  return Math.min(maximum, Math.max(minimum, value));
}

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
