import { GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { S3Store } from '../../../shared/ports/s3-store.js';

/**
 * S3Store's error mapping, against an S3Client whose `send` fails the way the
 * SDK does when S3 answers with an error. fauxqs cannot be used for this: it
 * ignores If-None-Match, so it never answers 412.
 */

/** An error shaped as the SDK deserialises an S3 error response. */
function serviceError(name: string, httpStatusCode: number): S3ServiceException {
  return new S3ServiceException({
    name,
    $fault: httpStatusCode < 500 ? 'client' : 'server',
    $metadata: { httpStatusCode, requestId: 'REQUEST1', attempts: 1, totalRetryDelay: 0 },
    message: `${name} (${httpStatusCode})`,
  });
}

function storeFailingWith(error: unknown): { store: S3Store; sentCommands: () => unknown[] } {
  const client = new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  const send = vi.spyOn(client, 'send').mockRejectedValue(error);
  return { store: new S3Store(client, 'assay-bucket'), sentCommands: () => send.mock.calls.map((call) => call[0]) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('S3Store conditional writes', () => {
  it.each([
    ['PreconditionFailed', 412],
    ['ConditionalRequestConflict', 409],
  ])('maps %s (%i) to written: false when ifNoneMatch is set', async (name, status) => {
    const { store, sentCommands } = storeFailingWith(serviceError(name, status));

    const result = await store.put('runs/r1/manifest.json', '{}', { ifNoneMatch: true });

    expect(result).toEqual({ written: false });
    const [command] = sentCommands();
    expect(command).toBeInstanceOf(PutObjectCommand);
    expect((command as PutObjectCommand).input).toMatchObject({ Bucket: 'assay-bucket', Key: 'runs/r1/manifest.json', IfNoneMatch: '*' });
  });

  it.each([
    ['PreconditionFailed', 412, { ifNoneMatch: false }],
    ['OperationAborted', 409, { ifNoneMatch: true }],
    ['InternalError', 500, { ifNoneMatch: true }],
    ['AccessDenied', 403, { ifNoneMatch: true }],
  ])('rethrows %s (%i) with %o', async (name, status, options) => {
    const { store } = storeFailingWith(serviceError(name, status));

    await expect(store.put('runs/r1/manifest.json', '{}', options)).rejects.toThrow(name);
  });

  it('sends no If-None-Match header on a plain put', async () => {
    const { store, sentCommands } = storeFailingWith(serviceError('InternalError', 500));

    await expect(store.put('reports/s/latest.json', '{}')).rejects.toThrow();

    expect((sentCommands()[0] as PutObjectCommand).input.IfNoneMatch).toBeUndefined();
  });
});

describe('S3Store reads', () => {
  it.each([
    ['NoSuchKey', 404],
    ['NotFound', 404],
  ])('reads %s (%i) as no object', async (name, status) => {
    const { store, sentCommands } = storeFailingWith(serviceError(name, status));

    expect(await store.get('runs/r1/manifest.json')).toBeUndefined();
    expect(await store.download('datasets/suite/rows.jsonl', '/nonexistent/never-written.jsonl')).toBe(false);
    expect(sentCommands()[0]).toBeInstanceOf(GetObjectCommand);
  });

  it('throws on a missing bucket, a configuration error rather than a missing object', async () => {
    const { store } = storeFailingWith(serviceError('NoSuchBucket', 404));

    await expect(store.get('runs/r1/manifest.json')).rejects.toThrow('NoSuchBucket');
    await expect(store.download('datasets/suite/rows.jsonl', '/nonexistent/never-written.jsonl')).rejects.toThrow('NoSuchBucket');
  });
});
