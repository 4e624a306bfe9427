import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { PipelineAlarms } from './constructs/alarms.js';
import { DataBucket } from './constructs/data-bucket.js';
import { EngineAccess } from './constructs/engine-access.js';
import { EngineNetwork } from './constructs/engine-network.js';
import { visibilityTimeoutFor } from './constructs/function-defaults.js';
import { BedrockBatchAccess } from './constructs/bedrock-batch-access.js';
import { JudgeModelAccess } from './constructs/judge-model-access.js';
import { importSecret, JudgeSecret } from './constructs/judge-secret.js';
import { NightlySchedule } from './constructs/nightly-schedule.js';
import { functionTimeouts, PipelineFunctions } from './constructs/pipeline-functions.js';
import { PipelineQueues } from './constructs/queues.js';
import type { Settings } from './settings.js';

export interface AssayStackProps extends StackProps {
  readonly settings: Settings;
}

/**
 * The whole deployment, in the order data flows: the bucket, the queues,
 * the judge key's secret (or, for Bedrock judges, the grant on their models;
 * and the engines' secret and network, when given),
 * the functions that connect them, what the live engines may be asked, the
 * nightly schedule, and the alarms. Environment-agnostic: the account and region come
 * from the credentials `cdk deploy` runs with, so `cdk synth` needs none.
 */
export class AssayStack extends Stack {
  readonly data: DataBucket;
  readonly queues: PipelineQueues;
  /** The judge key's secret; none for Bedrock judges, which sign with the judge worker's role. */
  readonly judgeSecret: JudgeSecret | undefined;
  /** What Bedrock judges may call; undefined for other providers. */
  readonly judgeModelAccess: JudgeModelAccess | undefined;
  /** Bedrock batch inference for batch-judged suites: the service role and the reducer's grants; undefined for other providers. */
  readonly bedrockBatch: BedrockBatchAccess | undefined;
  /** The live engines' variables, when the deployment names a secret for them. */
  readonly engineSecret: ISecret | undefined;
  /** The judge worker's VPC, when its engines are on private endpoints. */
  readonly engineNetwork: EngineNetwork | undefined;
  readonly engineAccess: EngineAccess;
  readonly functions: PipelineFunctions;
  readonly alarms: PipelineAlarms;

  constructor(scope: Construct, id: string, props: AssayStackProps) {
    super(scope, id, props);
    const { settings } = props;

    this.data = new DataBucket(this, 'Storage', settings);
    const timeouts = functionTimeouts(settings);
    this.queues = new PipelineQueues(this, 'Queues', {
      maxReceiveCount: settings.maxReceiveCount,
      casesVisibility: visibilityTimeoutFor(timeouts.judgeWorker, Duration.seconds(settings.maxBatchingWindowSeconds)),
      controlVisibility: visibilityTimeoutFor(timeouts.reducer),
      deadLetterVisibility: visibilityTimeoutFor(timeouts.failureRecorder),
    });
    const bedrockJudges = settings.judgeProvider === 'bedrock';
    this.judgeSecret = bedrockJudges ? undefined : new JudgeSecret(this, 'JudgeSecret', { importArn: settings.judgeSecretArn });
    this.engineSecret = settings.engineSecretArn === undefined ? undefined : importSecret(this, 'EngineSecret', settings.engineSecretArn);
    this.engineNetwork =
      settings.engineVpcId === undefined
        ? undefined
        : new EngineNetwork(this, 'EngineNetwork', {
            vpcId: settings.engineVpcId,
            subnetIds: settings.engineSubnetIds,
            securityGroupIds: settings.engineSecurityGroupIds,
          });
    this.functions = new PipelineFunctions(this, 'Pipeline', {
      settings,
      timeouts,
      data: this.data,
      queues: this.queues,
      judgeSecret: this.judgeSecret?.secret,
      engineSecret: this.engineSecret,
      engineNetwork: this.engineNetwork,
    });
    this.engineAccess = new EngineAccess(this, 'EngineAccess', {
      role: this.functions.judgeWorker.role,
      knowledgeBaseArns: settings.engineKnowledgeBaseArns,
      modelArns: settings.engineModelArns,
      functionArns: settings.engineFunctionArns,
      openSearchDomainArns: settings.engineOpenSearchDomainArns,
      openSearchCollectionArns: settings.engineOpenSearchCollectionArns,
    });
    const judgeModels = [settings.judgeModel, ...settings.judgeBedrockModels];
    this.judgeModelAccess = bedrockJudges
      ? new JudgeModelAccess(this, 'JudgeModelAccess', { role: this.functions.judgeWorker.role, modelIds: judgeModels })
      : undefined;
    this.bedrockBatch = bedrockJudges
      ? new BedrockBatchAccess(this, 'BedrockBatch', { data: this.data, reducer: this.functions.reducer, modelIds: judgeModels })
      : undefined;
    new NightlySchedule(this, 'Nightly', {
      expression: settings.schedule,
      trigger: this.functions.scheduledTrigger.function,
      deadLetterQueue: this.queues.failedEvents,
    });
    this.alarms = new PipelineAlarms(this, 'Alarms', { queues: this.queues, email: settings.alarmEmail });

    new CfnOutput(this, 'BucketName', { value: this.data.bucket.bucketName, description: 'assay submit DATASET --bucket <this>' });
    if (this.judgeSecret !== undefined) {
      new CfnOutput(this, 'JudgeSecretArn', {
        value: this.judgeSecret.secret.secretArn,
        description: 'aws secretsmanager put-secret-value --secret-id <this> --secret-string KEY',
      });
    }
    new CfnOutput(this, 'CasesQueueUrl', { value: this.queues.cases.queueUrl });
    new CfnOutput(this, 'CasesDeadLetterQueueUrl', { value: this.queues.casesDeadLetters.queueUrl });
  }
}
