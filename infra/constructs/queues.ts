import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption, type QueueProps } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface PipelineQueuesProps {
  /** Receives of a case message before it moves to the dead-letter queue. */
  readonly maxReceiveCount: number;
  /** Visibility timeouts, each from its consumer's timeout (see visibilityTimeoutFor). */
  readonly casesVisibility: Duration;
  readonly controlVisibility: Duration;
  readonly deadLetterVisibility: Duration;
}

/** Every queue is encrypted with SQS-managed keys and refuses requests that are not over TLS. */
const SECURE: QueueProps = { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true };

/** The longest SQS keeps a message: a dead letter waits that long for someone to look. */
const DEAD_LETTER_RETENTION = Duration.days(14);

/**
 * The pipeline's queues: one message per case on `cases` (consumed by the
 * judge worker), which after maxReceiveCount receives go to
 * `casesDeadLetters` (consumed by the failure recorder, so every case ends as
 * a result or a failure); the reducer's check and continue-ingest messages on
 * `control`, with its own dead-letter queue; and `failedEvents`, where Lambda
 * puts an upload notification or a schedule invocation that ingest or the
 * nightly trigger failed on three times.
 */
export class PipelineQueues extends Construct {
  readonly cases: Queue;
  readonly casesDeadLetters: Queue;
  readonly control: Queue;
  readonly controlDeadLetters: Queue;
  readonly failedEvents: Queue;

  constructor(scope: Construct, id: string, props: PipelineQueuesProps) {
    super(scope, id);
    this.casesDeadLetters = new Queue(this, 'CasesDeadLetters', {
      ...SECURE,
      retentionPeriod: DEAD_LETTER_RETENTION,
      visibilityTimeout: props.deadLetterVisibility,
    });
    this.cases = new Queue(this, 'Cases', {
      ...SECURE,
      // Longer than any run's deadline, so a backlog is judged late rather than dropped.
      retentionPeriod: Duration.days(4),
      visibilityTimeout: props.casesVisibility,
      deadLetterQueue: { queue: this.casesDeadLetters, maxReceiveCount: props.maxReceiveCount },
    });
    this.controlDeadLetters = new Queue(this, 'ControlDeadLetters', { ...SECURE, retentionPeriod: DEAD_LETTER_RETENTION });
    this.control = new Queue(this, 'Control', {
      ...SECURE,
      visibilityTimeout: props.controlVisibility,
      // A check that keeps failing (a run without a manifest) must not loop for the queue's retention period.
      deadLetterQueue: { queue: this.controlDeadLetters, maxReceiveCount: props.maxReceiveCount },
    });
    this.failedEvents = new Queue(this, 'FailedEvents', { ...SECURE, retentionPeriod: DEAD_LETTER_RETENTION });
  }
}
