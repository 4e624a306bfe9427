import { afterEach, describe, expect, it } from 'vitest';
import { acquireRunLease } from '../../shared/operations/run-lease.js';
import type { S3Store } from '../../shared/ports/s3-store.js';
import {
  type ConditionalS3Options,
  type ConditionalS3Server,
  firstOnly,
  startConditionalS3Server,
  storeOver,
} from '../support/conditional-s3-server.js';

/**
 * A write-once put (`If-None-Match: *`) whose answer S3 lost after storing
 * the object: the SDK sends it again, S3 refuses the retry with 412 because
 * the first attempt made the key exist, and the write is the caller's all the
 * same. Against a loopback S3 that honours the header, through the real SDK
 * client and its retries.
 */
const RUN_ID = 'r-0123456789abcdef';

let server: ConditionalS3Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function storeOn(options: ConditionalS3Options): Promise<{ store: S3Store; server: ConditionalS3Server }> {
  server = await startConditionalS3Server(options);
  return { store: storeOver(server), server };
}

const KEY = `runs/${RUN_ID}/results/q1.json`;
const methods = (seen: ConditionalS3Server) => seen.requests().map(({ method }) => method);

describe('a write-once put whose answer was lost after S3 stored it', () => {
  it('is written: the retry refused with 412 finds its own bytes in the object', async () => {
    // Prepare: the first answer to a write of the result is cut after the object is stored
    const { store, server } = await storeOn({ loseAnswer: (_request, index) => index === 0 });

    // Act
    const outcome = await store.put(KEY, '{"case":"q1"}', { ifNoneMatch: true });

    // Assess: sent twice, the second refused, then read back once to tell whose the object is
    expect(outcome).toEqual({ written: true });
    expect(methods(server)).toEqual(['PUT', 'PUT', 'GET']);
    expect(server.objects.get(KEY)?.toString()).toBe('{"case":"q1"}');
  });

  it('is not written when the object another writer stored holds other bytes, though the SDK sent it twice', async () => {
    // Prepare: another delivery's result stored first; this write's first attempt refused with a 500, so the SDK retries it
    const { store, server } = await storeOn({ failBeforeStoring: (_request, index) => index === 0 });
    server.objects.set(KEY, Buffer.from('{"case":"q1","delivery":"other"}'));

    // Act
    const outcome = await store.put(KEY, '{"case":"q1"}', { ifNoneMatch: true });

    // Assess
    expect(outcome).toEqual({ written: false });
    expect(methods(server)).toEqual(['PUT', 'PUT', 'GET']);
    expect(server.objects.get(KEY)?.toString()).toBe('{"case":"q1","delivery":"other"}');
  });

  it('is not written, without reading the object, when S3 refused its first attempt', async () => {
    // Prepare
    const { store, server } = await storeOn({});
    server.objects.set(KEY, Buffer.from('{"case":"q1","delivery":"other"}'));

    // Act
    const outcome = await store.put(KEY, '{"case":"q1"}', { ifNoneMatch: true });

    // Assess
    expect(outcome).toEqual({ written: false });
    expect(methods(server)).toEqual(['PUT']);
  });

  it("gives `assay run` its run's lease instead of refusing it as held by itself", async () => {
    // Prepare: the answer to the first write of a lease is lost once stored
    const { store, server } = await storeOn({ loseAnswer: firstOnly((request) => request.ifNoneMatch && request.key.includes('/lease')) });
    const holder = { command: 'run', host: 'this-host', pid: 4242 };

    // Act
    const outcome = await acquireRunLease(store, RUN_ID, { holder, processAlive: () => true, processStartTime: () => undefined });

    // Assess: held, by this holder, in the one lease object written
    expect(outcome.kind).toBe('held');
    expect(outcome.kind === 'held' ? outcome.lease.holder : undefined).toMatchObject({ pid: 4242, host: 'this-host' });
    if (outcome.kind === 'held') await outcome.lease.release();
    expect([...server.objects.keys()].filter((key) => key.includes('/lease'))).toHaveLength(1);
  });
});
