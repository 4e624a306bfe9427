import { join } from 'node:path';
import type { S3Event } from 'aws-lambda';
import type { SynthesizedFunction } from './synthesized-template.js';

/** The region the emulated functions run in. */
export const LAMBDA_REGION = 'us-east-1';

/**
 * The variables the Lambda service sets in every function's environment,
 * before the function's own: its name, memory and log stream, the region, and
 * the execution role's credentials (here the emulator's, which accepts any).
 * The shared config files point nowhere, so nothing of this machine's AWS
 * setup reaches the function.
 */
export function lambdaServiceEnvironment(fn: SynthesizedFunction, sandboxFolder: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'en_US.UTF-8',
    TZ: ':UTC',
    AWS_REGION: LAMBDA_REGION,
    AWS_DEFAULT_REGION: LAMBDA_REGION,
    AWS_EXECUTION_ENV: `AWS_Lambda_${fn.properties.Runtime}`,
    AWS_LAMBDA_FUNCTION_NAME: fn.logicalId,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.properties.MemorySize),
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${fn.logicalId}`,
    AWS_LAMBDA_LOG_STREAM_NAME: `emulated/${fn.logicalId}`,
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_SESSION_TOKEN: 'test',
    AWS_CONFIG_FILE: join(sandboxFolder, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(sandboxFolder, 'no-aws-credentials'),
  };
}

/**
 * The ObjectCreated notification S3 sends for an uploaded object. S3 encodes
 * the key as a form field: a space becomes "+" and other reserved characters
 * (a "+" among them) are percent-encoded, while "/" stays.
 */
export function s3NotificationEvent(bucket: string, key: string, etag: string, size: number): S3Event {
  const encodedKey = encodeURIComponent(key).replaceAll('%2F', '/').replaceAll('%20', '+');
  return {
    Records: [
      {
        eventVersion: '2.1',
        eventSource: 'aws:s3',
        awsRegion: LAMBDA_REGION,
        eventTime: '2026-01-01T00:00:00.000Z',
        eventName: 'ObjectCreated:Put',
        userIdentity: { principalId: 'AWS:AROAEXAMPLE' },
        requestParameters: { sourceIPAddress: '127.0.0.1' },
        responseElements: { 'x-amz-request-id': 'EXAMPLE123456789', 'x-amz-id-2': 'EXAMPLE' },
        s3: {
          s3SchemaVersion: '1.0',
          configurationId: 'datasets',
          bucket: { name: bucket, ownerIdentity: { principalId: 'EXAMPLE' }, arn: `arn:aws:s3:::${bucket}` },
          object: { key: encodedKey, size, eTag: etag, sequencer: '0065A1B2C3D4E5F601' },
        },
      },
    ],
  };
}
