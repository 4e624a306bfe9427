import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAwsClients, type AwsClients } from '../../shared/ports/aws-clients.js';
import { S3Store } from '../../shared/ports/s3-store.js';
import { startFauxqs, type Fauxqs } from '../support/fauxqs.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { runCli } from '../support/run-cli.js';
import { filesUnder } from '../support/store-files.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { writeFaultDataset } from './fault-harness.js';

/**
 * The key-echoing judge server of test/e2e/run-key-leak.test.ts, this time
 * with the run's store in an S3 bucket and its queues in SQS (fauxqs): every
 * object the run left in the bucket is read back and searched.
 */
const KEY = 'sk-proj-Hq3Zr8Wn5Tb1Ly7Mc4Kv9Dx2Fs6';
const PIECES = Array.from({ length: KEY.length - 7 }, (_, start) => KEY.slice(start, start + 8));

let server: OpenAiTestServer;
let emulator: Fauxqs;
let clients: AwsClients;
let folder: TempFolder;
beforeEach(async () => {
  server = await startOpenAiTestServer({ oracle: catalogOracle });
  emulator = await startFauxqs();
  clients = createAwsClients({ endpoint: emulator.endpoint });
  folder = await createTempFolder();
});
afterEach(async () => {
  vi.unstubAllEnvs();
  clients.s3.destroy();
  clients.sqs.destroy();
  await server.close();
  await emulator.close();
  await folder.remove();
});

async function bucketObjects(bucket: string): Promise<{ path: string; text: string }[]> {
  const store = new S3Store(clients.s3, bucket);
  const objects: { path: string; text: string }[] = [];
  for await (const key of store.list(''))
    objects.push({ path: `s3://${bucket}/${key}`, text: new TextDecoder().decode(await store.get(key)) });
  return objects;
}

describe('a judge server that repeats the key, over the S3/SQS emulator', () => {
  it('leaves the key in nothing assay prints or stores, and the run exits non-zero', async () => {
    // Prepare: a 401 that echoes the whole key
    server.setFaults({ echoKey: { status: 401, form: 'whole' } });
    vi.stubEnv('OPENAI_API_KEY', KEY);
    vi.stubEnv('OPENAI_BASE_URL', server.baseUrl);
    vi.stubEnv('ASSAY_JUDGE_MODEL', 'judge-model');
    const dataset = await writeFaultDataset(folder, 6);
    const out = join(folder.path, 'out');

    // Act
    const result = await runCli(['run', dataset.path, '--judges', 'chunk_relevance', '--aws-endpoint', emulator.endpoint, '--out', out]);

    // Assess: the key went to the server and came back in its errors, yet is nowhere in assay's output
    expect(server.log.some((entry) => entry.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(result.exitCode).toBe(1);
    const places = [
      { path: 'stdout', text: result.stdout },
      { path: 'stderr', text: result.stderr },
      ...(await filesUnder(out)),
      ...(await bucketObjects('assay')),
    ];
    expect(places.some(({ path, text }) => path.includes('/results/') && text.includes('[redacted]'))).toBe(true);
    expect(places.flatMap(({ path, text }) => PIECES.filter((piece) => text.includes(piece)).map((piece) => `${path}: ${piece}`))).toEqual(
      [],
    );
  }, 60_000);
});
