import { Stack, Validations } from 'aws-cdk-lib';
import { Policy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { CfnBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { DataBucket } from './data-bucket.js';
import type { AssayFunction } from './function-defaults.js';
import { acknowledgeProfileRegions, modelResources } from './judge-model-access.js';
import { arnWildcardFinding } from './nag-findings.js';

export interface BedrockBatchAccessProps {
  readonly data: DataBucket;
  /** The function that creates, watches and stops the jobs: the reducer. */
  readonly reducer: AssayFunction;
  /** The Bedrock model ids (or inference profile ids) the judges ask, as JudgeModelAccess grants them. */
  readonly modelIds: readonly string[];
}

/** Where a run's Bedrock batch jobs read and write in the bucket (shared/batch-providers/bedrock-batch-files.ts). */
export const BEDROCK_BATCH_OBJECTS = 'runs/*/batch/bedrock/*';
const SERVICE = 'bedrock.amazonaws.com';

/**
 * Batch judging on Amazon Bedrock (judge.batch with Bedrock judges): the
 * service role Bedrock assumes to run the model invocation jobs, and what
 * the reducer, which creates and follows them, may do.
 *
 * The role is trusted by bedrock.amazonaws.com only for the stack's own
 * account and its jobs in the stack's region (aws:SourceAccount,
 * aws:SourceArn, as AWS recommends against the confused deputy), and may
 * read and write the objects under runs/<run>/batch/bedrock/ of the stack's
 * bucket, and nothing else. The reducer may create jobs (of the judges'
 * models), look at and stop them, list them (to find a job by name; the
 * action has no resource to scope it to), and pass that role, to Bedrock
 * alone. The role's ARN and the bucket reach the reducer as
 * ASSAY_BEDROCK_BATCH_ROLE_ARN and ASSAY_BEDROCK_BATCH_S3_URI.
 */
export class BedrockBatchAccess extends Construct {
  readonly serviceRole: Role;
  readonly submitterPolicy: Policy;

  constructor(scope: Construct, id: string, props: BedrockBatchAccessProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const { bucket } = props.data;
    const jobs = stack.formatArn({ service: 'bedrock', resource: 'model-invocation-job', resourceName: '*' });

    this.serviceRole = new Role(this, 'ServiceRole', {
      assumedBy: new ServicePrincipal(SERVICE).withConditions({
        StringEquals: { 'aws:SourceAccount': stack.account },
        ArnLike: { 'aws:SourceArn': jobs },
      }),
      description:
        "Assumed by Amazon Bedrock to run assay's batch inference jobs: reads their input and writes their output under runs/*/batch/bedrock/ of the data bucket",
    });
    const ownBucket = { StringEquals: { 'aws:ResourceAccount': stack.account } };
    const servicePolicy = new Policy(this, 'ServicePolicy', {
      roles: [this.serviceRole],
      statements: [
        new PolicyStatement({
          actions: ['s3:GetObject', 's3:PutObject'],
          resources: [bucket.arnForObjects(BEDROCK_BATCH_OBJECTS)],
          conditions: ownBucket,
        }),
        new PolicyStatement({
          actions: ['s3:ListBucket'],
          resources: [bucket.bucketArn],
          conditions: { ...ownBucket, StringLike: { 's3:prefix': BEDROCK_BATCH_OBJECTS } },
        }),
      ],
    });
    Validations.of(servicePolicy).acknowledge({
      id: arnWildcardFinding(bucket.node.defaultChild as CfnBucket, `/${BEDROCK_BATCH_OBJECTS}`),
      reason:
        "Each batch job's input and output are under its run's own folder, runs/<run>/batch/bedrock/<job>/, named at run time: the grant names that pattern and no other object",
    });

    this.submitterPolicy = new Policy(this, 'SubmitterPolicy', {
      roles: [props.reducer.role],
      statements: [
        new PolicyStatement({ actions: ['bedrock:CreateModelInvocationJob'], resources: [jobs, ...modelResources(stack, props.modelIds)] }),
        new PolicyStatement({ actions: ['bedrock:GetModelInvocationJob', 'bedrock:StopModelInvocationJob'], resources: [jobs] }),
        new PolicyStatement({ actions: ['bedrock:ListModelInvocationJobs'], resources: ['*'] }),
        new PolicyStatement({
          actions: ['iam:PassRole'],
          resources: [this.serviceRole.roleArn],
          conditions: { StringEquals: { 'iam:PassedToService': SERVICE } },
        }),
      ],
    });
    acknowledgeProfileRegions(this.submitterPolicy, props.modelIds);
    Validations.of(this.submitterPolicy).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:<AWS::Region>:<AWS::AccountId>:model-invocation-job/*]',
      reason:
        "A batch job's ARN ends in an id Bedrock gives it at creation: the grant names the stack's own account and region, and jobs only",
    });
    Validations.of(this.submitterPolicy).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'bedrock:ListModelInvocationJobs, to find a job again by its name after a reducer died between creating and recording it, supports no resource-level permission; it reveals job names and states, no data',
    });

    props.reducer.function.addEnvironment('ASSAY_BEDROCK_BATCH_S3_URI', `s3://${bucket.bucketName}`);
    props.reducer.function.addEnvironment('ASSAY_BEDROCK_BATCH_ROLE_ARN', this.serviceRole.roleArn);
  }
}
