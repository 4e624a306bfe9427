import { Node } from 'constructs';
import { describe, expect, it } from 'vitest';
import { readSettings, settingsSchema } from '../../infra/settings.js';
import { cdkJsonContext, testApp } from './support/assay-app.js';

function settingsFrom(context: Record<string, unknown>) {
  return readSettings(Node.of(testApp({ context })));
}

describe('deployment settings', () => {
  it('lists in cdk.json exactly the defaults the settings have', () => {
    expect(settingsFrom(cdkJsonContext())).toEqual(settingsSchema.parse({}));
  });

  it('has the documented defaults', () => {
    const defaults = settingsSchema.parse({});

    expect(defaults).toMatchObject({ maxConcurrency: 10, maxReceiveCount: 3, batchSize: 10, schedule: 'cron(0 3 * * ? *)', suites: [] });
    expect(defaults.alarmEmail).toBeUndefined();
    expect(defaults.judgeSecretArn).toBeUndefined();
    expect(defaults).toMatchObject({
      engineKnowledgeBaseArns: [],
      engineModelArns: [],
      engineFunctionArns: [],
      engineOpenSearchDomainArns: [],
      engineOpenSearchCollectionArns: [],
      engineSubnetIds: [],
    });
    expect(defaults.engineSecretArn).toBeUndefined();
    expect(defaults.engineVpcId).toBeUndefined();
  });

  it('reads the engine resources as ARN lists, from a JSON array or comma-separated', () => {
    const settings = settingsFrom({
      engineFunctionArns:
        'arn:aws:lambda:us-east-1:123456789012:function:search, arn:aws:lambda:us-east-1:123456789012:function:search:live',
      engineKnowledgeBaseArns: ['arn:aws:bedrock:us-east-1:123456789012:knowledge-base/KB12345678'],
      engineModelArns: 'arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-3-haiku-20240307-v1:0',
      engineOpenSearchCollectionArns: 'arn:aws-cn:aoss:cn-north-1:123456789012:collection/a1b2c3d4e5f6',
      engineVpcId: 'vpc-0123456789abcdef0',
      engineSubnetIds: 'subnet-0123456789abcdef0,subnet-0fedcba9',
    });

    expect(settings.engineFunctionArns).toEqual([
      'arn:aws:lambda:us-east-1:123456789012:function:search',
      'arn:aws:lambda:us-east-1:123456789012:function:search:live',
    ]);
    expect(settings.engineKnowledgeBaseArns).toHaveLength(1);
    expect(settings.engineModelArns).toHaveLength(1);
    expect(settings.engineOpenSearchCollectionArns).toHaveLength(1);
    expect(settings.engineSubnetIds).toEqual(['subnet-0123456789abcdef0', 'subnet-0fedcba9']);
  });

  it('reads values given on the command line as strings (-c key=value)', () => {
    const settings = settingsFrom({
      maxConcurrency: '50',
      batchSize: '20',
      maxBatchingWindowSeconds: '5',
      suites: 'faq, search',
      alarmEmail: '',
    });

    expect(settings).toMatchObject({ maxConcurrency: 50, batchSize: 20, maxBatchingWindowSeconds: 5, suites: ['faq', 'search'] });
    expect(settingsFrom({ judgeRequestsPerMinute: '600', judgeTokensPerMinute: '' })).toMatchObject({
      judgeRequestsPerMinute: 600,
      judgeTokensPerMinute: undefined,
    });
    expect(settings.alarmEmail).toBeUndefined();
  });

  it.each([
    [{ maxConcurrency: '1' }, 'maxConcurrency'],
    [{ alarmEmail: 'not-an-address' }, 'alarmEmail'],
    [{ judgeSecretArn: 'my-secret' }, 'judgeSecretArn'],
    [{ logRetentionDays: '31' }, 'logRetentionDays'],
    [{ suites: 'faq,a/b' }, 'suites'],
    [{ batchSize: '50', maxBatchingWindowSeconds: '0' }, 'maxBatchingWindowSeconds'],
    [{ engineSecretArn: 'arn:aws:ssm:us-east-1:123456789012:parameter/engines' }, 'engineSecretArn'],
    [{ engineKnowledgeBaseArns: 'arn:aws:lambda:us-east-1:123456789012:function:search' }, 'engineKnowledgeBaseArns'],
    [{ engineKnowledgeBaseArns: 'arn:aws:bedrock:us-east-1:123456789012:knowledge-base/*' }, 'engineKnowledgeBaseArns'],
    [{ engineFunctionArns: 'search-engine' }, 'engineFunctionArns'],
    [{ engineFunctionArns: 'arn:aws:lambda:us-east-1:123456789012:function:*' }, 'engineFunctionArns'],
    [{ engineOpenSearchDomainArns: 'arn:aws:aoss:us-east-1:123456789012:collection/a1b2c3d4e5f6' }, 'engineOpenSearchDomainArns'],
    [{ engineOpenSearchDomainArns: 'arn:aws:es:us-east-1:123456789012:domain/products/*' }, 'engineOpenSearchDomainArns'],
    [{ engineOpenSearchCollectionArns: 'arn:aws:es:us-east-1:123456789012:domain/products' }, 'engineOpenSearchCollectionArns'],
    [{ engineModelArns: 'arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-3-haiku-20240307-v1:0' }, 'engineModelArns'],
    [
      {
        engineKnowledgeBaseArns: 'arn:aws:bedrock:us-east-1:123456789012:knowledge-base/KB12345678',
        engineModelArns: 'arn:aws:bedrock:us-east-1:123456789012:knowledge-base/KB12345678',
      },
      'engineModelArns',
    ],
    [{ engineVpcId: 'vpc-0123456789abcdef0' }, 'engineSubnetIds'],
    [{ engineSubnetIds: 'subnet-0123456789abcdef0' }, 'engineSubnetIds'],
    [{ engineVpcId: 'my-vpc', engineSubnetIds: 'subnet-0123456789abcdef0' }, 'engineVpcId'],
    [{ judgeProvider: 'vertex' }, 'judgeProvider'],
    [{ judgeProvider: 'bedrock' }, 'judgeModel'],
    [
      {
        judgeProvider: 'bedrock',
        judgeModel: 'anthropic.claude-3-5-haiku-20241022-v1:0',
        judgeSecretArn: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:assay-judge-AbC123',
      },
      'judgeSecretArn',
    ],
    [{ judgeBedrockModels: 'anthropic.claude-3-5-haiku-20241022-v1:0' }, 'judgeBedrockModels'],
    [
      {
        judgeProvider: 'bedrock',
        judgeModel: 'anthropic.claude-3-5-haiku-20241022-v1:0',
        judgeBedrockModels: 'arn:aws:bedrock:us-east-1::foundation-model/*',
      },
      'judgeBedrockModels',
    ],
    [
      { engineVpcId: 'vpc-0123456789abcdef0', engineSubnetIds: 'subnet-0123456789abcdef0', engineSecurityGroupIds: 'default' },
      'engineSecurityGroupIds',
    ],
    [{ engineSecurityGroupIds: 'sg-0123456789abcdef0' }, 'engineSecurityGroupIds'],
    [{ judgeRequestsPerMinute: '0' }, 'judgeRequestsPerMinute'],
    [{ judgeTokensPerMinute: 'lots' }, 'judgeTokensPerMinute'],
  ])('rejects %j naming the context key', (context, key) => {
    expect(() => settingsFrom(context)).toThrow(new RegExp(`context "${key}[".]`));
  });
});
