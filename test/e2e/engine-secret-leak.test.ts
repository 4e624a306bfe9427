import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startRecordingServer, type RecordedRequest, type RecordingServer } from '../support/recording-server.js';
import { runCli } from '../support/run-cli.js';
import { filesUnder } from '../support/store-files.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/** An engine token with characters a URL encodes, distinctive enough that 8 of its characters in a row can only come from it. */
const TOKEN = 'tok/Vq7Xw2+Lm9Tz4=Rb8Nc3&Kd6Hy1Jp5';
const ENCODED = encodeURIComponent(TOKEN);
/** Every run of 8 characters of the token, as sent in a header and as sent URL-encoded in the URL. */
const PIECES = [TOKEN, ENCODED].flatMap((form) => Array.from({ length: form.length - 7 }, (_, start) => form.slice(start, start + 8)));

const DATASET = [
  { request_id: 'q1', request: 'rotate a key', expected_retrieved_context: [{ doc_uri: 'kb/rotate', grade: 2 }] },
  { request_id: 'q2', request: 'restore a file', expected_retrieved_context: [{ doc_uri: 'kb/restore', grade: 1 }] },
]
  .map((row) => JSON.stringify(row))
  .join('\n');

/** An engine's error body that repeats the credentials it was sent: whole, as the URL carried them, and cut to their ends. */
function echoOf(request: RecordedRequest): string {
  const header = String(request.headers['x-search-token']);
  const fromUrl = /key=([^&]*)/.exec(request.url)?.[1] ?? '';
  return `token ${header} refused; the url said ${fromUrl}; known as ${header.slice(0, 10)}...${header.slice(-9)}`;
}

/** An engine that answers, echoing its token into a document's id and text and into its answer. */
function echoingAnswer(request: RecordedRequest): object {
  const header = String(request.headers['x-search-token']);
  return {
    hits: [
      { id: 'kb/rotate', text: `rotate keys; this service was called with ${header}` },
      { id: `kb/debug?token=${encodeURIComponent(header)}`, text: 'a signed link' },
    ],
    answer: `Rotate it (asked with ${header.slice(0, 12)}).`,
  };
}

/**
 * Engines on one service: "refused" answers 401 (a permanent failure), "busy" 503 (a transient
 * one, retried once), "echo" 200 with the token in its documents and answer.
 */
function configFor(url: string, names: readonly string[]): string {
  const engine = (name: string) => `  - name: ${name}
    retries: 1
    http:
      url: "${url}/${name}?key={{env.SEARCH_TOKEN}}"
      headers: {x-search-token: "{{env.SEARCH_TOKEN}}"}
      results: "hits[].{doc_uri: id, content: text}"
      response: "answer"
`;
  return `judges: [document_recall]\nengines:\n${names.map(engine).join('')}`;
}

/** The places a piece of the token was found: "stdout", "stderr" or a file path. */
function leaksIn(places: readonly { path: string; text: string }[]): string[] {
  return places.flatMap(({ path, text }) => PIECES.filter((piece) => text.includes(piece)).map((piece) => `${path}: ${piece}`));
}

let folder: TempFolder;
let engine: RecordingServer | undefined;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await engine?.close();
  engine = undefined;
  await folder.remove();
});

describe('an engine that repeats its credentials in its errors', () => {
  it('leaves no piece of the token in the output, the report or the store', async () => {
    // Prepare
    engine = await startRecordingServer((request) =>
      request.url.startsWith('/echo')
        ? { status: 200, body: echoingAnswer(request) }
        : { status: request.url.startsWith('/refused') ? 401 : 503, body: { error: echoOf(request) } },
    );
    vi.stubEnv('SEARCH_TOKEN', TOKEN);
    // The run keeps the permanent failure as each case's engine error; a transient one takes the same path through the retrying engine.
    const config = await folder.write('refused.yaml', configFor(engine.url, ['refused', 'echo']));
    const both = await folder.write('both.yaml', configFor(engine.url, ['refused', 'busy']));
    const dataset = await folder.write('queries.jsonl', DATASET);
    const store = join(folder.path, 'store');
    const out = join(folder.path, 'out');

    // Act
    const run = await runCli(['run', dataset, '--config', config, '--store', store, '--out', out]);
    const asked = await runCli(['engines', '--config', both, '--query', 'rotate a key']);

    // Assess: the engines got the token and repeated it, and the errors were stored where expected
    expect(engine.requests.length).toBeGreaterThan(0);
    expect(engine.requests.every((request) => request.headers['x-search-token'] === TOKEN && request.url.includes(`key=${ENCODED}`))).toBe(
      true,
    );
    const files = [...(await filesUnder(store)), ...(await filesUnder(out))];
    const scrubbed = 'token [redacted] refused; the url said [redacted]; known as [redacted]...[redacted]';
    for (const storedUnder of ['/engine-answers/', '/results/', 'cases.jsonl']) {
      expect(
        files.some(({ path, text }) => path.includes(storedUnder) && text.includes(scrubbed)),
        storedUnder,
      ).toBe(true);
    }
    const answers = files
      .filter(({ path }) => path.includes('/engine-answers/'))
      .map(({ text }) => text)
      .join('\n');
    expect(answers).toContain('this service was called with [redacted]');
    expect(answers).toContain('kb/debug?token=[redacted]');
    expect(asked.stdout).toContain(`answered HTTP 401: {"error":"${scrubbed}"}`);
    expect(asked.stdout).toContain(`answered HTTP 503: {"error":"${scrubbed}"} (after 2 attempts)`);
    // ... and no 8 characters of the token in a row anywhere
    const outputs = [run, asked].flatMap((outcome, index) => [
      { path: `stdout ${index}`, text: outcome.stdout },
      { path: `stderr ${index}`, text: outcome.stderr },
    ]);
    expect(leaksIn([...outputs, ...files])).toEqual([]);
  });
});
