import { describe, expect, it } from 'vitest';
import {
  customizedAssay,
  defaultAssay,
  functionLogicalId,
  logicalIdOf,
  propertiesOf,
  type SynthesizedAssay,
} from '../support/assay-app.js';

/** The statement CDK writes for `enforceSSL`: every request that is not over TLS is refused. */
const denyInsecureTransport = expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } });

function bucketPolicyStatements(assay: SynthesizedAssay, bucket: string): unknown[] {
  const policies = assay.template.findResources('AWS::S3::BucketPolicy', { Properties: { Bucket: { Ref: bucket } } });
  return Object.values(policies).flatMap((policy) => policy.Properties.PolicyDocument.Statement as unknown[]);
}

describe('the data bucket', () => {
  it.each([
    ['data', (assay: SynthesizedAssay) => assay.stack.data.bucket],
    ['access log', (assay: SynthesizedAssay) => assay.stack.data.accessLogs],
  ])('the %s bucket is encrypted, private and TLS-only', (_name, pick) => {
    const assay = defaultAssay();
    const bucket = logicalIdOf(pick(assay));

    expect(propertiesOf(assay.template, bucket)).toMatchObject({
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
    });
    expect(bucketPolicyStatements(assay, bucket)).toContainEqual(denyInsecureTransport);
  });

  it('sends its server access logs to the access log bucket', () => {
    const assay = defaultAssay();

    expect(propertiesOf(assay.template, logicalIdOf(assay.stack.data.bucket))).toMatchObject({
      LoggingConfiguration: { DestinationBucketName: { Ref: logicalIdOf(assay.stack.data.accessLogs) } },
    });
  });

  it('expires the judge cache and the runs after the days set in context, and keeps everything else', () => {
    // Prepare: cacheExpirationDays 7 and runsExpirationDays 45 in the customized context.
    const assay = customizedAssay();
    const lifecycle = propertiesOf(assay.template, logicalIdOf(assay.stack.data.bucket)).LifecycleConfiguration as {
      Rules: { Prefix?: string; ExpirationInDays?: number }[];
    };

    expect(lifecycle.Rules).toContainEqual(expect.objectContaining({ Prefix: 'cache/', ExpirationInDays: 7, Status: 'Enabled' }));
    expect(lifecycle.Rules).toContainEqual(expect.objectContaining({ Prefix: 'runs/', ExpirationInDays: 45, Status: 'Enabled' }));
    expect(lifecycle.Rules.filter((rule) => rule.ExpirationInDays !== undefined).map((rule) => rule.Prefix)).toEqual(['cache/', 'runs/']);
  });

  it('keeps the earlier versions of every object', () => {
    const assay = defaultAssay();

    expect(propertiesOf(assay.template, logicalIdOf(assay.stack.data.bucket))).toMatchObject({
      VersioningConfiguration: { Status: 'Enabled' },
    });
  });

  it.each([
    ['30 by default', defaultAssay, 30],
    ['14 from context', customizedAssay, 14],
  ])('expires earlier versions after the days set, %s, and removes the delete markers left alone', (_name, synthesize, days) => {
    const assay = synthesize();
    const lifecycle = propertiesOf(assay.template, logicalIdOf(assay.stack.data.bucket)).LifecycleConfiguration as {
      Rules: Record<string, unknown>[];
    };

    const noncurrent = lifecycle.Rules.filter((rule) => rule.NoncurrentVersionExpiration !== undefined);

    expect(noncurrent).toEqual([
      expect.objectContaining({
        Status: 'Enabled',
        NoncurrentVersionExpiration: { NoncurrentDays: days },
        ExpiredObjectDeleteMarker: true,
      }),
    ]);
    // Over the whole bucket: no prefix or tag filter.
    expect(noncurrent[0]).not.toHaveProperty('Prefix');
    expect(noncurrent[0]).not.toHaveProperty('TagFilters');
  });

  it('starts ingest when an object is created under datasets/', () => {
    const assay = defaultAssay();
    const bucket = logicalIdOf(assay.stack.data.bucket);
    const ingest = functionLogicalId(assay.stack.functions.ingest);

    assay.template.hasResourceProperties('Custom::S3BucketNotifications', {
      BucketName: { Ref: bucket },
      NotificationConfiguration: {
        LambdaFunctionConfigurations: [
          {
            Events: ['s3:ObjectCreated:*'],
            Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'datasets/' }] } },
            LambdaFunctionArn: { 'Fn::GetAtt': [ingest, 'Arn'] },
          },
        ],
      },
    });
    assay.template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [ingest, 'Arn'] },
      Principal: 's3.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': [bucket, 'Arn'] },
    });
  });
});

describe('the queues', () => {
  it.each([
    ['3 by default', defaultAssay, 3],
    ['5 from context', customizedAssay, 5],
  ])('moves a case to the dead-letter queue after maxReceiveCount receives: %s', (_name, synthesize, maxReceiveCount) => {
    const assay = synthesize();

    expect(propertiesOf(assay.template, logicalIdOf(assay.stack.queues.cases))).toMatchObject({
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [logicalIdOf(assay.stack.queues.casesDeadLetters), 'Arn'] }, maxReceiveCount },
    });
  });

  it('gives the control queue a dead-letter queue of its own', () => {
    const assay = defaultAssay();

    expect(propertiesOf(assay.template, logicalIdOf(assay.stack.queues.control))).toMatchObject({
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [logicalIdOf(assay.stack.queues.controlDeadLetters), 'Arn'] } },
    });
  });

  it('encrypts every queue and refuses requests that are not over TLS', () => {
    const assay = defaultAssay();
    const queues = assay.template.findResources('AWS::SQS::Queue');
    const policies = Object.values(assay.template.findResources('AWS::SQS::QueuePolicy'));

    expect(Object.keys(queues)).toHaveLength(5);
    for (const [logicalId, queue] of Object.entries(queues)) {
      expect(queue.Properties.SqsManagedSseEnabled, logicalId).toBe(true);
      const own = policies.filter((policy) => JSON.stringify(policy.Properties.Queues) === JSON.stringify([{ Ref: logicalId }]));
      expect(
        own.flatMap((policy) => policy.Properties.PolicyDocument.Statement as unknown[]),
        logicalId,
      ).toContainEqual(denyInsecureTransport);
    }
  });
});
