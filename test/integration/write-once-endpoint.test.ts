import { join } from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAwsClients } from '../../shared/ports/aws-clients.js';
import { MemoryStore } from '../../shared/ports/memory-store.js';
import { S3Store } from '../../shared/ports/s3-store.js';
import { refusesSecondWriteOnce } from '../../shared/ports/write-once-probe.js';
import { writeFaultDataset } from '../faults/fault-harness.js';
import { type ConditionalS3Server, startConditionalS3Server, storeOver } from '../support/conditional-s3-server.js';
import { type Fauxqs, startFauxqs } from '../support/fauxqs.js';
import { runCli } from '../support/run-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * An S3 endpoint that takes If-None-Match and ignores it (the fauxqs
 * emulator does) cannot keep a case's first result against a second
 * delivery, nor a run's lease against a second operator: a run over it says
 * so on stderr. One that honours it (AWS S3, the loopback stand-in here) gets
 * no warning. The probe leaves nothing in the bucket.
 */
let fauxqs: Fauxqs | undefined;
let s3: ConditionalS3Server | undefined;
let folder: TempFolder | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await fauxqs?.close();
  await s3?.close();
  await folder?.remove();
  fauxqs = undefined;
  s3 = undefined;
  folder = undefined;
});

const WARNING = /^assay: warning: the S3 at 127\.0\.0\.1:\d+ ignores If-None-Match \(a second write-once put of a key was accepted\): /m;

async function keysOf(store: S3Store | MemoryStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list('')) keys.push(key);
  return keys;
}

describe('the write-once probe', () => {
  it('finds an S3 that refuses the second put, and leaves no key behind', async () => {
    // Prepare
    s3 = await startConditionalS3Server();
    const store = storeOver(s3);

    // Act
    const refuses = await refusesSecondWriteOnce(store);

    // Assess
    expect(refuses).toBe(true);
    expect(s3.requests().map(({ method, ifNoneMatch }) => `${method}${ifNoneMatch ? ' if-none-match' : ''}`)).toEqual([
      'PUT if-none-match',
      'PUT if-none-match',
      'DELETE',
    ]);
  });

  it('finds that the fauxqs emulator takes the second put, and leaves no key behind', async () => {
    // Prepare
    fauxqs = await startFauxqs();
    const clients = createAwsClients({ endpoint: fauxqs.endpoint });
    const store = new S3Store(clients.s3, 'probe-bucket');
    await clients.s3.send(new CreateBucketCommand({ Bucket: 'probe-bucket' }));

    // Act
    const refuses = await refusesSecondWriteOnce(store);

    // Assess
    expect(refuses).toBe(false);
    expect(await keysOf(store)).toEqual([]);
  });

  it('finds that the in-memory store refuses the second put', async () => {
    const store = new MemoryStore();
    expect(await refusesSecondWriteOnce(store)).toBe(true);
    expect(await keysOf(store)).toEqual([]);
  });
});

describe('a store that looks before each write-once put', () => {
  it('keeps the first of two writes of a key on an S3 that ignores If-None-Match', async () => {
    // Prepare
    fauxqs = await startFauxqs();
    const clients = createAwsClients({ endpoint: fauxqs.endpoint });
    await clients.s3.send(new CreateBucketCommand({ Bucket: 'probe-bucket' }));
    const plain = new S3Store(clients.s3, 'probe-bucket');
    const looking = new S3Store(clients.s3, 'probe-bucket', { lookBeforeWriteOnce: true });

    // Act: a first result, then a second delivery's of the same case, through each store
    const first = await looking.put('runs/r/results/q1.json', 'first', { ifNoneMatch: true });
    const second = await looking.put('runs/r/results/q1.json', 'second', { ifNoneMatch: true });
    const overwritten = await plain.put('runs/r/results/q1.json', 'third', { ifNoneMatch: true });

    // Assess: the looking store refused the second; the plain one, trusting the header, overwrote
    expect([first, second, overwritten]).toEqual([{ written: true }, { written: false }, { written: true }]);
    expect(new TextDecoder().decode(await plain.get('runs/r/results/q1.json'))).toBe('third');
  });

  it('writes without looking where it is not asked to', async () => {
    // Prepare
    s3 = await startConditionalS3Server();
    const store = storeOver(s3);

    // Act
    await store.put('runs/r/results/q1.json', 'first', { ifNoneMatch: true });

    // Assess
    expect(s3.requests().map(({ method }) => method)).toEqual(['PUT']);
  });
});

describe('assay run over an endpoint whose S3 ignores If-None-Match', () => {
  it('says once on stderr what it cannot keep, and runs', async () => {
    // Prepare: no judge key, so the offline lexical judge judges
    fauxqs = await startFauxqs();
    folder = await createTempFolder();
    vi.stubEnv('OPENAI_API_KEY', '');
    const dataset = await writeFaultDataset(folder, 3);

    // Act
    const result = await runCli(['run', dataset.path, '--aws-endpoint', fauxqs.endpoint, '--out', join(folder.path, 'out')]);

    // Assess
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr.match(new RegExp(WARNING.source, 'gm'))).toHaveLength(1);
  }, 60_000);
});
