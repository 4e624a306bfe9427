import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAwsClients, type AwsClients } from '../../shared/ports/aws-clients.js';
import { S3Store } from '../../shared/ports/s3-store.js';
import { startS3ErrorServer, type S3ErrorAnswer, type S3ErrorServer } from '../support/s3-error-server.js';

/**
 * How S3Store reads S3's refusals, through the real SDK client against a
 * loopback server answering as S3 does: a missing key is 404 NoSuchKey to a
 * caller that may list the bucket and 403 AccessDenied to one that may not.
 * Only the 404 means "absent"; a 403 names the key and the permission.
 */
const BUCKET = 'assay-data';
const ANSWERS: Record<string, S3ErrorAnswer> = {
  'config/missing.yaml': { status: 404, code: 'NoSuchKey', message: 'The specified key does not exist.' },
  'config/support.yaml': { status: 403, code: 'AccessDenied', message: 'Access Denied' },
  'runs/r1/bare.json': { status: 403 },
  'runs/r1/stale-credentials.json': {
    status: 403,
    code: 'InvalidAccessKeyId',
    message: 'The AWS Access Key Id you provided does not exist in our records.',
  },
};

let server: S3ErrorServer;
let clients: AwsClients;
let store: S3Store;
let folder: string;

beforeAll(async () => {
  server = await startS3ErrorServer(({ key }) => ANSWERS[key] ?? { status: 403, code: 'AccessDenied', message: 'Access Denied' });
  clients = createAwsClients({ endpoint: server.endpoint });
  store = new S3Store(clients.s3, BUCKET);
  folder = await mkdtemp(join(tmpdir(), 'assay-s3-refusals-'));
});

afterAll(async () => {
  clients.s3.destroy();
  clients.sqs.destroy();
  await server.close();
  await rm(folder, { recursive: true, force: true });
});

describe('S3Store against S3 refusals', () => {
  it('reads 404 NoSuchKey as no object', async () => {
    expect(await store.get('config/missing.yaml')).toBeUndefined();
    expect(await store.download('config/missing.yaml', join(folder, 'missing.yaml'))).toBe(false);
  });

  it.each([
    ['get', () => store.get('config/support.yaml')],
    ['download', () => store.download('config/support.yaml', join(folder, 'support.yaml'))],
  ])('%s: takes 403 AccessDenied for a refusal naming the key and the permissions, not for absent', async (_name, read) => {
    const refusal = read();

    await expect(refusal).rejects.toThrow(`S3 refused reading s3://${BUCKET}/config/support.yaml (403 AccessDenied: Access Denied)`);
    await expect(refusal).rejects.toThrow(/needs s3:GetObject on that key, and s3:ListBucket on the bucket/);
  });

  it('names the key of a 403 that came without a body', async () => {
    await expect(store.get('runs/r1/bare.json')).rejects.toThrow(
      `S3 refused reading s3://${BUCKET}/runs/r1/bare.json (403 without a body); the caller's role needs s3:GetObject`,
    );
  });

  it('leaves a 403 about the credentials, not a grant, as S3 said it', async () => {
    await expect(store.get('runs/r1/stale-credentials.json')).rejects.toThrow(
      /^The AWS Access Key Id you provided does not exist in our records\.$/,
    );
  });

  it('names the permission a refused write and a refused listing need', async () => {
    await expect(store.put('runs/r1/results/q1.json', '{}')).rejects.toThrow(
      `S3 refused writing s3://${BUCKET}/runs/r1/results/q1.json (403 AccessDenied: Access Denied); the caller's role needs s3:PutObject on that key`,
    );
    const listing = (async () => {
      for await (const key of store.list('runs/r1/results/')) expect(key).toBeUndefined();
    })();
    await expect(listing).rejects.toThrow(
      `S3 refused listing s3://${BUCKET}/runs/r1/results/ (403 AccessDenied: Access Denied); the caller's role needs s3:ListBucket on the bucket`,
    );
  });
});
