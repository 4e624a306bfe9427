import { describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../../shared/config/index.js';
import { batchProviderOf } from '../../../shared/batch-providers/batch-provider-of.js';
import { batchSettingsOf } from '../../../shared/judge-client/batch-settings.js';

/** judge.batch on Amazon Bedrock: where its jobs read and write, its minimum records a job, and what a round below it does. */
const BEDROCK = { provider: 'bedrock', bedrock: { region: 'us-east-1', model_id: 'anthropic.claude-3-5-haiku-20241022-v1:0' } };
const PLACE = { s3_uri: 's3://my-bucket/assay', role_arn: 'arn:aws:iam::123456789012:role/assay-bedrock-batch' };

function configOf(judge: object) {
  const loaded = parseRunConfig({ judge }, 'assay.yaml');
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.value;
}

describe('judge.batch on Amazon Bedrock', () => {
  it('is accepted, with below_minimum online and 100 records a job by default', () => {
    const config = configOf({ ...BEDROCK, batch: { bedrock: PLACE } });

    expect(batchSettingsOf(config.judge.batch)).toMatchObject({
      belowMinimum: 'online',
      failedLines: 'resubmit',
      bedrock: { ...PLACE, min_records_per_job: 100 },
    });
    expect(batchSettingsOf(true)).toMatchObject({ belowMinimum: 'online', bedrock: undefined });
  });

  it.each([
    [
      'an S3 location that is no S3 URI',
      { ...BEDROCK, batch: { bedrock: { ...PLACE, s3_uri: 'my-bucket/assay' } } },
      'field "judge.batch.bedrock.s3_uri": expected an S3 URI such as s3://my-bucket/assay',
    ],
    [
      'a role that is no role ARN',
      { ...BEDROCK, batch: { bedrock: { ...PLACE, role_arn: 'assay-bedrock-batch' } } },
      'field "judge.batch.bedrock.role_arn": expected an IAM role ARN',
    ],
    [
      'an unknown below_minimum',
      { ...BEDROCK, batch: { below_minimum: 'pad' } },
      'field "judge.batch": Invalid input (fix: write true, or an object with some of the keys enabled, failed_lines, unanswered_lines,',
    ],
    [
      'the Bedrock block under another provider',
      {
        provider: 'azure',
        azure: { endpoint: 'https://r.openai.azure.com', deployment: 'd', api_version: 'v1' },
        batch: { bedrock: PLACE },
      },
      'field "judge.batch.bedrock": applies only with provider bedrock, and the provider is azure',
    ],
  ])('rejects %s, naming the field', (_, judge, message) => {
    const loaded = parseRunConfig({ judge }, 'assay.yaml');

    expect(loaded.ok ? '' : loaded.error).toContain(message);
  });

  it('takes the place of the jobs from the environment over the file, and says what is missing without one', async () => {
    const withoutPlace = await batchProviderOf(configOf({ ...BEDROCK, batch: true }).judge, {});
    const fromEnvironment = await batchProviderOf(configOf({ ...BEDROCK, batch: true }).judge, {
      ASSAY_BEDROCK_BATCH_S3_URI: 's3://stack-bucket',
      ASSAY_BEDROCK_BATCH_ROLE_ARN: PLACE.role_arn,
    });
    const badEnvironment = await batchProviderOf(configOf({ ...BEDROCK, batch: { bedrock: PLACE } }).judge, {
      ASSAY_BEDROCK_BATCH_S3_URI: 'stack-bucket',
    });

    expect(withoutPlace).toEqual({ ok: false, error: expect.stringContaining('give judge.batch.bedrock {s3_uri, role_arn}') });
    expect(fromEnvironment.ok && fromEnvironment.value).toMatchObject({
      name: 'Amazon Bedrock batch inference (us-east-1)',
      limits: { minRequests: 100 },
    });
    expect(badEnvironment).toEqual({ ok: false, error: expect.stringContaining('ASSAY_BEDROCK_BATCH_S3_URI: expected an S3 URI') });
  });
});
