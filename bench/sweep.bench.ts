import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { embeddedInfrastructure } from '../cli/run/store-and-queues.js';
import { Progress } from '../cli/run/progress.js';
import { runPipeline } from '../cli/run/run-pipeline.js';
import { Bm25Index } from '../examples/engines/bm25.js';
import { loadCorpus } from '../examples/engines/bm25-server.js';
import { configFileSchema } from '../shared/config/index.js';
import { MAX_CONCURRENCY } from '../shared/schema/work-limits.js';
import { benchArgs, benchOptions, positiveNumber, wholeNumber } from './bench-options.js';

/**
 * A sweep's engine throughput on the embedded default: 8 variants (a 4 × 2
 * matrix over b and k1) of a local BM25 search service that answers every
 * search after --latency ms, over --queries queries. The ideal is
 * engine_concurrency / latency calls a second; the figure is the share of it
 * reached between the first and the last search the service saw.
 *
 *   npm run bench:sweep -- [--queries 1000] [--engine-concurrency 16] [--latency 50] [--concurrency 16]
 */
const { values } = benchArgs('bench:sweep', {
  options: {
    queries: { type: 'string', default: '1000' },
    'engine-concurrency': { type: 'string', default: '16' },
    /** Case batches in flight are a quarter of it, as `assay run --concurrency`. */
    concurrency: { type: 'string', default: '16' },
    latency: { type: 'string', default: '50' },
  },
});
// The ideal throughput divides by the latency.
const options = benchOptions(
  'bench:sweep',
  z.object({
    queries: wholeNumber(1),
    'engine-concurrency': wholeNumber(1, MAX_CONCURRENCY),
    concurrency: wholeNumber(1, MAX_CONCURRENCY),
    latency: positiveNumber(),
  }),
  values,
);
const { queries } = options;
const engineConcurrency = options['engine-concurrency'];
const latencyMs = options.latency;

const documents = loadCorpus(join(import.meta.dirname, '..', 'examples', 'engines', 'corpus.jsonl'));
const index = new Bm25Index(documents);
const searchedAt: number[] = [];
let inFlight = 0;
let mostInFlight = 0;

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query: string; b: number; k1: number };
  inFlight++;
  mostInFlight = Math.max(mostInFlight, inFlight);
  searchedAt.push(performance.now());
  await new Promise((resolve) => setTimeout(resolve, latencyMs));
  const hits = index
    .search(body.query, { b: body.b, k1: body.k1, size: 10, fields: ['title', 'text'] })
    .map(({ document, score }) => ({ id: document.id, text: document.text, score }));
  inFlight--;
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ hits }));
}

const service = createServer((request, response) => void handle(request, response));
await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
const { port } = service.address() as AddressInfo;
const folder = await mkdtemp(join(tmpdir(), 'assay-bench-sweep-'));
try {
  // Queries built from the corpus's own words, so every search does real work.
  const words = documents.flatMap((document) =>
    document.text
      .toLowerCase()
      .split(/\W+/)
      .filter((word) => word.length > 3),
  );
  const lines = Array.from({ length: queries }, (_, position) => {
    const picked = [0, 1, 2].map((offset) => words[(position * 7 + offset * 13) % words.length]);
    return JSON.stringify({ request_id: `q${position}`, request: picked.join(' ') });
  });
  const datasetPath = join(folder, 'queries.jsonl');
  await writeFile(datasetPath, `${lines.join('\n')}\n`);
  const config = configFileSchema.parse({
    judges: [],
    run: { engine_concurrency: engineConcurrency },
    engines: [
      {
        name: 'bm25',
        matrix: { b: [0.3, 0.5, 0.75, 0.9], k1: [0.9, 1.5] },
        http: {
          url: `http://127.0.0.1:${port}/search`,
          body: { query: '{{query}}', b: '{{b}}', k1: '{{k1}}' },
          results: 'hits[].{doc_uri: id, content: text, score: score}',
        },
      },
    ],
  });
  const started = performance.now();
  const result = await runPipeline(
    {
      datasetPath,
      suite: 'sweep',
      config,
      strict: false,
      noCache: true,
      concurrency: options.concurrency,
      outFolder: join(folder, 'out'),
      environment: {},
      engineEnvironment: {},
    },
    embeddedInfrastructure(join(folder, 'store')),
    (usage) => new Progress({ write: () => true, isTTY: false } as unknown as NodeJS.WriteStream, usage),
  );
  if (result.kind !== 'reported') throw new Error(`the sweep ended ${result.kind}, without a report`);
  const wall = (performance.now() - started) / 1000;
  const first = Math.min(...searchedAt);
  const last = Math.max(...searchedAt);
  const callsPerSecond = (searchedAt.length - 1) / ((last - first) / 1000);
  const ideal = engineConcurrency / (latencyMs / 1000);
  console.log(
    `cases: ${result.report.cases.evaluated}/${result.report.cases.total}, engines: ${Object.keys(result.report.engines).length}, searches: ${searchedAt.length}`,
  );
  console.log(
    `engine calls: ${callsPerSecond.toFixed(1)}/s of an ideal ${ideal.toFixed(1)}/s (${engineConcurrency} in flight × ${latencyMs} ms) = ${((100 * callsPerSecond) / ideal).toFixed(1)}%`,
  );
  console.log(`most searches in flight: ${mostInFlight}; whole run ${wall.toFixed(1)} s`);
} finally {
  service.close();
  await rm(folder, { recursive: true, force: true });
}
