import { Node } from 'constructs';
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { readSettings, settingsSchema } from '../../infra/settings.js';
import { cdkJsonContext } from './support/assay-app.js';

function settingsFrom(context: Record<string, unknown>) {
  return readSettings(Node.of(new App({ context })));
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
  });

  it('reads values given on the command line as strings (-c key=value)', () => {
    const settings = settingsFrom({ maxConcurrency: '50', batchSize: '20', maxBatchingWindowSeconds: '5', suites: 'faq, search', alarmEmail: '' });

    expect(settings).toMatchObject({ maxConcurrency: 50, batchSize: 20, maxBatchingWindowSeconds: 5, suites: ['faq', 'search'] });
    expect(settings.alarmEmail).toBeUndefined();
  });

  it.each([
    [{ maxConcurrency: '1' }, 'maxConcurrency'],
    [{ alarmEmail: 'not-an-address' }, 'alarmEmail'],
    [{ judgeSecretArn: 'my-secret' }, 'judgeSecretArn'],
    [{ logRetentionDays: '31' }, 'logRetentionDays'],
    [{ suites: 'faq,a/b' }, 'suites'],
    [{ batchSize: '50', maxBatchingWindowSeconds: '0' }, 'maxBatchingWindowSeconds'],
  ])('rejects %j naming the context key', (context, key) => {
    expect(() => settingsFrom(context)).toThrow(new RegExp(`context "${key}[".]`));
  });
});
