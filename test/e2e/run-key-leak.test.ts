import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer, type FaultPlan, type OpenAiTestServer } from '../support/openai-test-server.js';
import { runCli } from '../support/run-cli.js';
import { filesUnder } from '../support/store-files.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/** Distinctive enough that any 8 characters of it in a row can only come from the key. */
const KEY = 'sk-proj-Vq7Xw2Lm9Tz4Rb8Nc3Kd6Hy1Jp5';
/** Every run of 8 characters of the key. */
const PIECES = Array.from({ length: KEY.length - 7 }, (_, start) => KEY.slice(start, start + 8));

const DATASET = [
  {
    request_id: 'q1',
    request: 'How do I rotate a key?',
    retrieved_context: [{ doc_uri: 'kb/rotate', content: 'Create a second key, then delete the old one.' }],
  },
  {
    request_id: 'q2',
    request: 'How do I restore a file?',
    retrieved_context: [{ doc_uri: 'kb/restore', content: 'Remove the delete marker.' }],
  },
]
  .map((row) => JSON.stringify(row))
  .join('\n');

let folder: TempFolder;
let server: OpenAiTestServer;
beforeEach(async () => {
  folder = await createTempFolder();
  server = await startOpenAiTestServer({ oracle: catalogOracle });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server.close();
  await folder.remove();
});

/** The places a piece of the key was found: "stdout", "stderr" or a file path. */
function leaksIn(places: readonly { path: string; text: string }[]): string[] {
  return places.flatMap(({ path, text }) => PIECES.filter((piece) => text.includes(piece)).map((piece) => `${path}: ${piece}`));
}

describe('a judge server that repeats the API key in its errors', () => {
  it.each<{ described: string; echoKey: NonNullable<FaultPlan['echoKey']>; storedUnder: string; failure: RegExp }>([
    {
      described: 'a 401 with the whole key',
      echoKey: { status: 401, form: 'whole' },
      storedUnder: '/results/',
      failure:
        /^assay run: every judge call failed \(\d+ of \d+\); the first: .*the judge server refused the credentials \(HTTP 401: Incorrect API key provided: \[redacted\]\./,
    },
    {
      described: 'a 401 with the key cut to its first and last 10 characters',
      echoKey: { status: 401, form: 'truncated' },
      storedUnder: '/results/',
      failure: /^assay run: every judge call failed .*Incorrect API key provided: \[redacted\]\.\.\.\[redacted\]\./,
    },
    {
      described: 'a 500 with the whole key, until the cases go to the dead-letter queue',
      echoKey: { status: 500, form: 'whole' },
      storedUnder: '/failures/',
      failure:
        /^assay run: no case could be evaluated \(2 failed, 0 missing\); the first failure, q1: .*judge server answered 500: .*Incorrect API key provided: \[redacted\]\./,
    },
  ])('$described: the key is nowhere in the output, the report or the store', async ({ echoKey, storedUnder, failure }) => {
    // Prepare
    server.setFaults({ echoKey });
    vi.stubEnv('OPENAI_API_KEY', KEY);
    vi.stubEnv('OPENAI_BASE_URL', server.baseUrl);
    vi.stubEnv('ASSAY_JUDGE_MODEL', 'judge-model');
    const dataset = await folder.write('two-cases.jsonl', DATASET);
    const store = join(folder.path, 'store');
    const out = join(folder.path, 'out');

    // Act
    const result = await runCli(['run', dataset, '--judges', 'chunk_relevance', '--store', store, '--out', out]);

    // Assess: the server did get the key and repeat it, and the run stored its errors where expected
    expect(server.log.length).toBeGreaterThan(0);
    expect(server.log.every((entry) => entry.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toMatch(failure);
    const files = [...(await filesUnder(store)), ...(await filesUnder(out))];
    expect(files.some(({ path, text }) => path.includes(storedUnder) && text.includes('Incorrect API key provided: [redacted]'))).toBe(
      true,
    );
    expect(files.map(({ path }) => path)).toEqual(expect.arrayContaining([join(out, 'report.json'), join(out, 'cases.jsonl')]));
    // ... and no 8 characters of the key in a row anywhere
    expect(leaksIn([{ path: 'stdout', text: result.stdout }, { path: 'stderr', text: result.stderr }, ...files])).toEqual([]);
  });
});
