import { HeadBucketCommand } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, ListQueuesCommand } from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAwsClients, ensureAwsResources, type AwsResourceNames } from '../../shared/ports/aws-clients.js';
import { useFauxqsClients } from '../support/fauxqs.js';

const aws = useFauxqsClients();

afterEach(() => {
  vi.unstubAllEnvs();
});

const names = (overrides: Partial<AwsResourceNames> = {}): AwsResourceNames => ({
  bucket: 'assay-data',
  casesQueue: 'assay-cases',
  deadLetterQueue: 'assay-dead-letters',
  controlQueue: 'assay-control',
  maxReceiveCount: 3,
  visibilityTimeoutSeconds: 30,
  ...overrides,
});

async function attributesOf(url: string): Promise<Record<string, string>> {
  const result = await aws.clients.sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] }));
  return result.Attributes ?? {};
}

describe('ensureAwsResources on fauxqs', () => {
  it('creates the bucket and queues once, and returns the same ones when called again', async () => {
    const first = await ensureAwsResources(aws.clients, names());
    const second = await ensureAwsResources(aws.clients, names());

    expect(second.bucket).toBe('assay-data');
    expect([second.cases.url, second.deadLetters.url, second.control.url]).toEqual([
      first.cases.url,
      first.deadLetters.url,
      first.control.url,
    ]);
    expect([second.cases.name, second.deadLetters.name, second.control.name]).toEqual([
      'assay-cases',
      'assay-dead-letters',
      'assay-control',
    ]);
    await expect(aws.clients.s3.send(new HeadBucketCommand({ Bucket: 'assay-data' }))).resolves.toBeDefined();
    const listed = await aws.clients.sqs.send(new ListQueuesCommand({ QueueNamePrefix: 'assay-' }));
    expect(listed.QueueUrls).toHaveLength(3);
  });

  it('gives the cases queue the visibility timeout and a redrive policy to the dead-letter queue', async () => {
    const resources = await ensureAwsResources(
      aws.clients,
      names({ casesQueue: 'assay-cases-redrive', deadLetterQueue: 'assay-dlq-redrive' }),
    );

    const cases = await attributesOf(resources.cases.url);
    const deadLetters = await attributesOf(resources.deadLetters.url);

    expect(cases.VisibilityTimeout).toBe('30');
    expect(JSON.parse(cases.RedrivePolicy ?? '{}')).toEqual({ deadLetterTargetArn: deadLetters.QueueArn, maxReceiveCount: 3 });
    expect(deadLetters.MessageRetentionPeriod).toBe(String(14 * 24 * 60 * 60));
  });

  it('brings existing queues to changed settings instead of failing', async () => {
    const changed = names({ casesQueue: 'assay-cases-changed', maxReceiveCount: 5, visibilityTimeoutSeconds: 60 });
    await ensureAwsResources(aws.clients, names({ casesQueue: 'assay-cases-changed' }));

    const resources = await ensureAwsResources(aws.clients, changed);

    const cases = await attributesOf(resources.cases.url);
    expect(cases.VisibilityTimeout).toBe('60');
    expect(JSON.parse(cases.RedrivePolicy ?? '{}')).toMatchObject({ maxReceiveCount: 5 });
  });
});

describe('createAwsClients', () => {
  it('uses dummy credentials and path-style S3 URLs for a loopback endpoint when none are configured', async () => {
    for (const name of [
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_PROFILE',
      'AWS_WEB_IDENTITY_TOKEN_FILE',
      'AWS_CONTAINER_CREDENTIALS_FULL_URI',
      'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
    ]) {
      vi.stubEnv(name, '');
    }

    const local = createAwsClients({ endpoint: aws.fauxqs.endpoint });

    expect(await local.s3.config.credentials()).toMatchObject({ accessKeyId: 'test', secretAccessKey: 'test' });
    expect(await local.sqs.config.credentials()).toMatchObject({ accessKeyId: 'test' });
    expect(local.s3.config.forcePathStyle).toBe(true);
    expect(await local.s3.config.region()).toBe('us-east-1');
    local.s3.destroy();
    local.sqs.destroy();
  });

  it('keeps credentials from the environment, even for a loopback endpoint', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDEXAMPLEONLY');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'example-secret-not-real');

    const local = createAwsClients({ endpoint: aws.fauxqs.endpoint, region: 'eu-west-1' });

    expect(await local.s3.config.credentials()).toMatchObject({ accessKeyId: 'AKIDEXAMPLEONLY' });
    expect(await local.sqs.config.region()).toBe('eu-west-1');
    local.s3.destroy();
    local.sqs.destroy();
  });
});
