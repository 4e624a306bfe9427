import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { EventType } from 'aws-cdk-lib/aws-s3';
import { LambdaDestination } from 'aws-cdk-lib/aws-s3-notifications';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { Settings } from '../settings.js';
import type { DataBucket, DataPrefix } from './data-bucket.js';
import { AssayFunction, METRICS_NAMESPACE, SERVICE_NAME, type AssayFunctionProps, type FunctionNetwork } from './function-defaults.js';
import type { PipelineQueues } from './queues.js';
import { judgeWorkersOf } from '../judge-workers.js';

/** Function timeouts, known before the queues are made: each queue's visibility timeout follows its consumer's. */
export interface FunctionTimeouts {
  readonly ingest: Duration;
  readonly judgeWorker: Duration;
  readonly failureRecorder: Duration;
  readonly reducer: Duration;
  readonly scheduledTrigger: Duration;
}

/**
 * Ingest, the trigger and the reducer get Lambda's 15 minutes: ingest stops at
 * a checkpoint a minute before its time runs out, and the reducer reads every
 * result of a run one object at a time.
 */
export function functionTimeouts(settings: Settings): FunctionTimeouts {
  return {
    ingest: Duration.minutes(15),
    judgeWorker: Duration.seconds(settings.judgeWorkerTimeoutSeconds),
    failureRecorder: Duration.minutes(1),
    reducer: Duration.minutes(15),
    scheduledTrigger: Duration.minutes(15),
  };
}

export interface PipelineFunctionsProps {
  readonly settings: Settings;
  readonly timeouts: FunctionTimeouts;
  readonly data: DataBucket;
  readonly queues: PipelineQueues;
  /** The judge key's secret; absent for Bedrock judges. */
  readonly judgeSecret: ISecret | undefined;
  /** The live engines' variables; absent: the engines read only the function's environment. */
  readonly engineSecret?: ISecret | undefined;
  /** Where the judge worker runs when the engines are on private endpoints. */
  readonly engineNetwork?: FunctionNetwork | undefined;
}

/** Room on local disk for a dataset and its spool files (about three times its size). */
const INGEST_STORAGE_MIB = 4096;

/** A poison message on the control queue then takes only itself to the dead-letter queue (the reducer fails whole batches). */
const CONTROL_BATCH_SIZE = 1;

/**
 * The pipeline's five functions, what starts each of them, and what each may
 * touch: only the objects under the bucket prefixes, the queues and the
 * secret its handler uses, plus the bucket's key names (an unconditioned
 * s3:ListBucket, so that S3 answers a missing key with 404: data-bucket.ts).
 */
export class PipelineFunctions extends Construct {
  readonly ingest: AssayFunction;
  readonly judgeWorker: AssayFunction;
  readonly failureRecorder: AssayFunction;
  readonly reducer: AssayFunction;
  readonly scheduledTrigger: AssayFunction;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: PipelineFunctionsProps,
  ) {
    super(scope, id);
    const { settings, timeouts, data, queues } = props;

    this.ingest = this.assayFunction('Ingest', {
      handlerFile: 'ingest',
      description: 'assay ingest: an upload under datasets/ becomes a run and one message per case',
      timeout: timeouts.ingest,
      memoryMiB: 1024,
      ephemeralStorageMiB: INGEST_STORAGE_MIB,
      deadLetterQueue: queues.failedEvents,
    });
    // canaries/: a suite's canary set (config canaries:), read beside its dataset.
    this.grantObjects(this.ingest, { read: ['datasets/', 'config/', 'canaries/', 'runs/'], write: ['runs/'] });
    queues.cases.grantSendMessages(this.ingest.role);
    queues.control.grantSendMessages(this.ingest.role);
    data.bucket.addEventNotification(EventType.OBJECT_CREATED, new LambdaDestination(this.ingest.function), { prefix: 'datasets/' });
    this.acknowledgeNotificationHandler();

    const { engineSecret, engineNetwork } = props;
    // The judge account's rate shared by the judge workers: each container's part, and as many containers at most.
    const workers = judgeWorkersOf(settings);
    this.judgeWorker = this.assayFunction(
      'JudgeWorker',
      {
        handlerFile: 'judge-worker',
        description: 'assay judge worker: asks the live engines, judges a batch of cases and writes their results',
        timeout: timeouts.judgeWorker,
        memoryMiB: settings.judgeWorkerMemoryMiB,
        reservedConcurrency: workers.reservedConcurrency,
        ...(engineNetwork === undefined ? {} : { network: engineNetwork }),
      },
      {
        ...workers.environment,
        // The secret's ARN, never its value; only the judge worker calls engines.
        ...(engineSecret === undefined ? {} : { ASSAY_ENGINE_SECRET_ARN: engineSecret.secretArn }),
      },
    );
    this.grantObjects(this.judgeWorker, { read: ['runs/', 'cache/'], write: ['runs/', 'cache/'] });
    props.judgeSecret?.grantRead(this.judgeWorker.role);
    engineSecret?.grantRead(this.judgeWorker.role);
    // A case the judge server's rate limit held is sent again as a new message (shared/worker/rate-limit-deferral.ts).
    queues.cases.grantSendMessages(this.judgeWorker.role);
    this.judgeWorker.function.addEventSource(
      new SqsEventSource(queues.cases, {
        batchSize: settings.batchSize,
        maxBatchingWindow: settings.maxBatchingWindowSeconds > 0 ? Duration.seconds(settings.maxBatchingWindowSeconds) : undefined,
        reportBatchItemFailures: true,
        maxConcurrency: workers.maxConcurrency,
      }),
    );

    this.failureRecorder = this.assayFunction('FailureRecorder', {
      handlerFile: 'failure-recorder',
      description: 'assay failure recorder: a dead-lettered case becomes runs/<run>/failures/<shard>/<case>.json',
      timeout: timeouts.failureRecorder,
      memoryMiB: 256,
    });
    this.grantObjects(this.failureRecorder, { read: ['runs/'], write: ['runs/', 'dead-letters/'] });
    this.failureRecorder.function.addEventSource(new SqsEventSource(queues.casesDeadLetters, { batchSize: 10 }));

    this.reducer = this.assayFunction('Reducer', {
      handlerFile: 'reducer',
      description: 'assay reducer: checks runs, writes reports, resumes large ingests',
      timeout: timeouts.reducer,
      memoryMiB: 1024,
      ephemeralStorageMiB: INGEST_STORAGE_MIB,
    });
    // A new report is compared with the run baselines/<suite>.json names, else with the suite's previous report.
    this.grantObjects(this.reducer, { read: ['runs/', 'reports/', 'baselines/'], write: ['runs/', 'reports/'] });
    queues.control.grantSendMessages(this.reducer.role);
    queues.cases.grantSendMessages(this.reducer.role);
    // A batch-judged run's checks submit, poll and collect its jobs at the judge provider, with the judge key.
    props.judgeSecret?.grantRead(this.reducer.role);
    this.reducer.function.addEventSource(new SqsEventSource(queues.control, { batchSize: CONTROL_BATCH_SIZE }));

    this.scheduledTrigger = this.assayFunction(
      'ScheduledTrigger',
      {
        handlerFile: 'scheduled-trigger',
        description: "assay nightly trigger: re-runs each suite's stored dataset",
        timeout: timeouts.scheduledTrigger,
        memoryMiB: 1024,
        ephemeralStorageMiB: INGEST_STORAGE_MIB,
        deadLetterQueue: queues.failedEvents,
      },
      { ASSAY_SUITES: settings.suites.join(',') },
    );
    this.grantObjects(this.scheduledTrigger, { read: ['datasets/', 'config/', 'canaries/', 'runs/'], write: ['runs/'] });
    queues.cases.grantSendMessages(this.scheduledTrigger.role);
    queues.control.grantSendMessages(this.scheduledTrigger.role);
  }

  get all(): readonly AssayFunction[] {
    return [this.ingest, this.judgeWorker, this.failureRecorder, this.reducer, this.scheduledTrigger];
  }

  private assayFunction(
    id: string,
    props: Omit<AssayFunctionProps, 'environment' | 'logRetention'>,
    extraEnvironment: Record<string, string> = {},
  ): AssayFunction {
    const { settings, data, queues, judgeSecret } = this.props;
    return new AssayFunction(this, id, {
      ...props,
      logRetention: settings.logRetentionDays as RetentionDays,
      environment: {
        ASSAY_BUCKET: data.bucket.bucketName,
        ASSAY_CASES_QUEUE_URL: queues.cases.queueUrl,
        ASSAY_CONTROL_QUEUE_URL: queues.control.queueUrl,
        ...judgeEnvironment(settings, judgeSecret),
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        POWERTOOLS_LOG_LEVEL: settings.logLevel,
        ...extraEnvironment,
      },
    });
  }

  /**
   * CloudFormation cannot attach a notification to a bucket it is creating,
   * so CDK adds a function that does it at deploy time, at the stack's top
   * level. Its own permission is scoped to the bucket; only its logging
   * policy is the managed one.
   */
  private acknowledgeNotificationHandler(): void {
    const handler = Stack.of(this).node.tryFindChild('BucketNotificationsHandler050a0587b7544547bf325f094a3db834');
    if (handler === undefined) return;
    Validations.of(handler).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason:
        "CDK's bucket-notification handler runs only while deploying, to attach the datasets/ notification; the construct gives its role the managed logging policy and offers no way to replace it",
    });
  }

  /** Object grants under the prefixes a handler uses, and the acknowledgement of the one wildcard each must keep. */
  private grantObjects(target: AssayFunction, access: { read: DataPrefix[]; write: DataPrefix[] }): void {
    const { data } = this.props;
    data.grantReadObjects(target.role, ...access.read);
    data.grantWriteObjects(target.role, ...access.write);
    // Every reader may list (data-bucket.ts says why): a missing key must be a 404, not a 403.
    data.grantList(target.role);
    for (const prefix of new Set([...access.read, ...access.write])) {
      Validations.of(target.role).acknowledge({
        id: data.objectWildcardFinding(prefix),
        reason: `The ${target.node.id} function's object keys under ${prefix} are created at run time (run ids, case ids, content hashes), so the grant names the prefix, not the objects`,
      });
    }
  }
}

/**
 * The judges' variables: the secret's ARN (never its value; only the judge
 * worker, and the reducer for batch jobs, may read the value) and the OpenAI-compatible server, or for Bedrock
 * judges the provider alone, whose calls need no key and no URL.
 */
function judgeEnvironment(settings: Settings, judgeSecret: ISecret | undefined): Record<string, string> {
  const model = { ASSAY_JUDGE_MODEL: settings.judgeModel };
  if (settings.judgeProvider === 'bedrock') return { ASSAY_JUDGE_PROVIDER: 'bedrock', ...model };
  return {
    ...(judgeSecret === undefined ? {} : { ASSAY_JUDGE_SECRET_ARN: judgeSecret.secretArn }),
    OPENAI_BASE_URL: settings.judgeBaseUrl,
    ...model,
  };
}
