import { InProcessQueue } from '../../../shared/ports/in-process-queue.js';
import { describeWorkQueueContract } from '../../support/work-queue-contract.js';

// The SQS adapter runs the same contract against fauxqs in test/integration/sqs-queue.test.ts.

describeWorkQueueContract('InProcessQueue', async ({ visibilityTimeoutSeconds, maxReceiveCount }) => {
  const deadLetters = new InProcessQueue('assay-dead-letters', { visibilityTimeoutSeconds });
  const queue = new InProcessQueue('assay-cases', { visibilityTimeoutSeconds, redrive: { deadLetterQueue: deadLetters, maxReceiveCount } });
  return { queue, deadLetters };
});
