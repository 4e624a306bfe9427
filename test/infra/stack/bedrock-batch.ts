import { describe, expect, it } from 'vitest';
import {
  BEDROCK_CONTEXT,
  bedrockAssay,
  defaultAssay,
  functionLogicalId,
  logicalIdOf,
  propertiesOf,
  roleLogicalId,
  type SynthesizedAssay,
} from '../support/assay-app.js';
import { allowStatements, asList } from '../support/iam-statements.js';

/** An ARN the template builds in the deployment's partition, and its region and account where given. */
const arn = (...parts: unknown[]) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ...parts]] });
const JOBS = arn(':bedrock:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':model-invocation-job/*');

function serviceRole(assay: SynthesizedAssay): string {
  const role = assay.stack.bedrockBatch?.serviceRole;
  if (role === undefined) throw new Error('This stack has no Bedrock batch service role');
  return logicalIdOf(role);
}

describe('Bedrock batch inference for batch-judged suites (-c judgeProvider=bedrock)', () => {
  it("makes a service role trusted by bedrock.amazonaws.com only for the stack's account and its own jobs", () => {
    const assay = bedrockAssay();

    const trust = propertiesOf(assay.template, serviceRole(assay)).AssumeRolePolicyDocument as { Statement: unknown[] };

    expect(trust.Statement).toEqual([
      {
        Effect: 'Allow',
        Principal: { Service: 'bedrock.amazonaws.com' },
        Action: 'sts:AssumeRole',
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } }, ArnLike: { 'aws:SourceArn': JOBS } },
      },
    ]);
  });

  it("lets the service role read and write the objects under runs/*/batch/bedrock/ of the stack's bucket, and nothing else", () => {
    const assay = bedrockAssay();
    const bucket = logicalIdOf(assay.stack.data.bucket);

    const statements = allowStatements(assay).filter(({ roles }) => roles.includes(serviceRole(assay)));

    const ownAccount = { StringEquals: { 'aws:ResourceAccount': { Ref: 'AWS::AccountId' } } };
    expect(
      statements.map(({ statement }) => ({
        actions: asList(statement.Action),
        resource: statement.Resource,
        condition: statement.Condition,
      })),
    ).toEqual([
      {
        actions: ['s3:GetObject', 's3:PutObject'],
        resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucket, 'Arn'] }, '/runs/*/batch/bedrock/*']] },
        condition: ownAccount,
      },
      {
        actions: ['s3:ListBucket'],
        resource: { 'Fn::GetAtt': [bucket, 'Arn'] },
        condition: { ...ownAccount, StringLike: { 's3:prefix': 'runs/*/batch/bedrock/*' } },
      },
    ]);
    const role = propertiesOf(assay.template, serviceRole(assay));
    expect(role).not.toHaveProperty('ManagedPolicyArns');
    expect(role).not.toHaveProperty('Policies');
  });

  it("grants the reducer the batch job actions, scoped to its jobs and the judges' models, and passing the service role to Bedrock alone", () => {
    const assay = bedrockAssay();
    const reducer = roleLogicalId(assay.stack.functions.reducer);

    const grants = allowStatements(assay)
      .filter(
        ({ roles, statement }) =>
          roles.includes(reducer) && asList(statement.Action).some((action) => action.startsWith('bedrock:') || action === 'iam:PassRole'),
      )
      .map(({ statement }) => ({
        actions: asList(statement.Action),
        resources: asList(statement.Resource),
        condition: statement.Condition,
      }));

    const profile = BEDROCK_CONTEXT.judgeBedrockModels;
    expect(grants).toEqual([
      {
        actions: ['bedrock:CreateModelInvocationJob'],
        resources: [
          arn(':bedrock:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:inference-profile/${profile}`),
          JOBS,
          arn(':bedrock:', { Ref: 'AWS::Region' }, `::foundation-model/${BEDROCK_CONTEXT.judgeModel}`),
          arn(`:bedrock:*::foundation-model/${profile.replace(/^us\./, '')}`),
        ],
        condition: undefined,
      },
      { actions: ['bedrock:GetModelInvocationJob', 'bedrock:StopModelInvocationJob'], resources: [JOBS], condition: undefined },
      { actions: ['bedrock:ListModelInvocationJobs'], resources: ['*'], condition: undefined },
      {
        actions: ['iam:PassRole'],
        resources: [{ 'Fn::GetAtt': [serviceRole(assay), 'Arn'] }],
        condition: { StringEquals: { 'iam:PassedToService': 'bedrock.amazonaws.com' } },
      },
    ]);
    // No other function may create jobs or pass the role.
    const others = allowStatements(assay).filter(
      ({ roles, statement }) =>
        !roles.includes(reducer) && asList(statement.Action).some((action) => /ModelInvocationJob|PassRole/.test(action)),
    );
    expect(others).toEqual([]);
  });

  it('tells the reducer alone the service role and the bucket its jobs use', () => {
    const assay = bedrockAssay();

    const variablesOf = (name: keyof typeof assay.stack.functions) =>
      (
        propertiesOf(assay.template, functionLogicalId(assay.stack.functions[name] as never)).Environment as {
          Variables: Record<string, unknown>;
        }
      ).Variables;

    expect(variablesOf('reducer')).toMatchObject({
      ASSAY_BEDROCK_BATCH_ROLE_ARN: { 'Fn::GetAtt': [serviceRole(assay), 'Arn'] },
      ASSAY_BEDROCK_BATCH_S3_URI: { 'Fn::Join': ['', ['s3://', { Ref: logicalIdOf(assay.stack.data.bucket) }]] },
    });
    for (const name of ['ingest', 'judgeWorker', 'failureRecorder', 'scheduledTrigger'] as const)
      expect(Object.keys(variablesOf(name)), name).not.toContain('ASSAY_BEDROCK_BATCH_ROLE_ARN');
  });

  it('makes no service role and grants no batch job action in the default stack', () => {
    const assay = defaultAssay();

    expect(assay.stack.bedrockBatch).toBeUndefined();
    const trusts = Object.values(assay.template.findResources('AWS::IAM::Role')).map((role) =>
      JSON.stringify(role.Properties.AssumeRolePolicyDocument),
    );
    expect(trusts.filter((trust) => trust.includes('bedrock.amazonaws.com'))).toEqual([]);
    expect(
      allowStatements(assay)
        .flatMap(({ statement }) => asList(statement.Action))
        .filter((action) => /ModelInvocationJob|PassRole/.test(action)),
    ).toEqual([]);
  });
});
