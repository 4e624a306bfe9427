import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { Bm25Index, type Document } from './bm25.js';

/**
 * The example engine: a BM25 search service over corpus.jsonl.
 *
 *   POST /search  {"query": "...", "k1": 1.2, "b": 0.75, "size": 10, "fields": ["title", "text"]}
 *              -> {"hits": [{"id", "title", "text", "score"}], "took_ms"}
 *   GET  /health -> {"documents": 40}
 *
 * --delay-ms adds latency to every search; --fail-rate answers that share of
 * searches with 503, spread evenly by a request counter (0.25 fails the 4th,
 * 8th, ...), so a run against it is repeatable. --degraded ranks the matches
 * in reverse (same scores, worst document first): a bad release, for trying
 * out how a nightly run catches a regression.
 */

const searchSchema = z.strictObject({
  query: z.string().min(1),
  request_id: z.string().optional(),
  k1: z.number().min(0).default(1.2),
  b: z.number().min(0).max(1).default(0.75),
  size: z.number().int().min(1).max(100).default(10),
  fields: z
    .array(z.enum(['title', 'text']))
    .min(1)
    .default(['title', 'text']),
});

export interface ServerOptions {
  readonly port: number;
  readonly host: string;
  readonly delayMs: number;
  readonly failRate: number;
  readonly documents: readonly Document[];
  /** A bad release to catch: the same scores, the documents in reverse order (the worst match ranked first). */
  readonly degraded?: boolean;
}

export function loadCorpus(path: string): Document[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Document);
}

/** Starts the service; resolves with the server once it listens. */
export async function startBm25Server(options: ServerOptions): Promise<Server> {
  const { documents } = options;
  const index = new Bm25Index(documents);
  let searches = 0;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method === 'GET' && request.url === '/health') return send(200, { documents: documents.length });
    if (request.method !== 'POST' || request.url !== '/search') return send(404, { error: 'use POST /search or GET /health' });
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let input: unknown;
    try {
      input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(400, { error: 'the body is not JSON' });
    }
    const parsed = searchSchema.safeParse(input);
    if (!parsed.success) return send(400, { error: z.prettifyError(parsed.error) });
    searches += 1;
    if (Math.floor(searches * options.failRate) > Math.floor((searches - 1) * options.failRate))
      return send(503, { error: 'injected failure' });
    const started = performance.now();
    if (options.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    const found = index.search(parsed.data.query, parsed.data);
    const ranked =
      options.degraded === true
        ? found.map((entry, position) => ({ ...entry, document: (found[found.length - 1 - position] ?? entry).document }))
        : found;
    const hits = ranked.map(({ document, score }) => ({ ...document, score: Math.round(score * 10_000) / 10_000 }));
    send(200, { hits, took_ms: Math.round(performance.now() - started) });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8700' },
      host: { type: 'string', default: '127.0.0.1' },
      'delay-ms': { type: 'string', default: '0' },
      'fail-rate': { type: 'string', default: '0' },
      degraded: { type: 'boolean', default: false },
      corpus: { type: 'string', default: new URL('corpus.jsonl', import.meta.url).pathname },
    },
  });
  const options: ServerOptions = {
    port: Number(values.port),
    host: values.host,
    delayMs: Number(values['delay-ms']),
    failRate: Number(values['fail-rate']),
    documents: loadCorpus(values.corpus),
    degraded: values.degraded,
  };
  if (!Number.isInteger(options.port) || options.port < 0) throw new Error(`--port: expected a port number, got ${values.port}`);
  if (!(options.delayMs >= 0)) throw new Error(`--delay-ms: expected milliseconds from 0 up, got ${values['delay-ms']}`);
  if (!(options.failRate >= 0 && options.failRate <= 1))
    throw new Error(`--fail-rate: expected a share from 0 to 1, got ${values['fail-rate']}`);
  const server = await startBm25Server(options).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    throw new Error(
      `port ${options.port} on ${options.host} is in use, perhaps by an example engine started earlier: stop that one, ` +
        "or start this one with --port and a free port, and give that port in the engines' url of the config",
    );
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  // The first line tells a caller (and a test that asked for port 0) where the service listens.
  process.stdout.write(`BM25 example engine listening on http://${options.host}:${port}/search (${options.documents.length} documents)\n`);
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  });
}
