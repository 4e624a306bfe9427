import { describe, expect, it } from 'vitest';
import { ensureAwsResources } from '../../shared/ports/aws-clients.js';
import { useFauxqsClients } from '../support/fauxqs.js';
import { describeWorkQueueContract } from '../support/work-queue-contract.js';

// SqsQueue against aws.fauxqs 1.9.2, which implements everything the contract checks:
// visibility timeout, ChangeMessageVisibility, DelaySeconds, long polling and redrive.

const aws = useFauxqsClients();
let runs = 0;

describeWorkQueueContract('SqsQueue on fauxqs', async ({ visibilityTimeoutSeconds, maxReceiveCount }) => {
  // Fresh queues per check, made the way the pipeline makes them.
  runs += 1;
  const resources = await ensureAwsResources(aws.clients, {
    bucket: 'assay-contract',
    casesQueue: `assay-cases-${runs}`,
    deadLetterQueue: `assay-dead-letters-${runs}`,
    controlQueue: `assay-control-${runs}`,
    maxReceiveCount,
    visibilityTimeoutSeconds,
  });
  return { queue: resources.cases, deadLetters: resources.deadLetters };
});

describe('SqsQueue on fauxqs: refusals', () => {
  it('reports a message SQS refuses in failed, with the code, and sends the rest', async () => {
    const { cases } = await ensureAwsResources(aws.clients, {
      bucket: 'assay-contract',
      casesQueue: 'assay-cases-refusals',
      deadLetterQueue: 'assay-dead-letters-refusals',
      controlQueue: 'assay-control-refusals',
      maxReceiveCount: 2,
      visibilityTimeoutSeconds: 1,
    });

    // SQS accepts only #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD in a body.
    const result = await cases.sendBatch([
      { id: 'good', body: 'case q1' },
      { id: 'bad', body: 'case \u0000 q2' },
    ]);
    const received = await cases.receive({ maxMessages: 10, waitSeconds: 1 });

    expect(result.failed).toEqual([{ id: 'bad', error: expect.stringMatching(/^InvalidMessageContents: .*\(sender fault\)$/) }]);
    expect(received.map((message) => message.body)).toEqual(['case q1']);
  });
});
