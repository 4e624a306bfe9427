import type { SQSRecord } from 'aws-lambda';

/** One SQS record as an event source delivers it: a first delivery of `body` to the cases queue. */
export function sqsRecordOf(body: string, messageId = 'm-1'): SQSRecord {
  return {
    messageId,
    receiptHandle: `receipt-${messageId}`,
    body,
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'test', ApproximateFirstReceiveTimestamp: '0' },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:cases',
    awsRegion: 'us-east-1',
  };
}
