import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { embeddedInfrastructure } from '../cli/run/store-and-queues.js';
import { Progress } from '../cli/run/progress.js';
import { runPipeline } from '../cli/run/run-pipeline.js';
import { configFileSchema } from '../shared/config/index.js';
import { MAX_CONCURRENCY } from '../shared/schema/work-limits.js';
import { startOpenAiTestServer } from '../test/support/openai-test-server.js';
import { benchArgs, benchOptions, positiveNumber, wholeNumber } from './bench-options.js';

/**
 * Pipeline benchmarks on the embedded default:
 * - judge throughput: a test judge answering every call in --latency ms; the
 *   ideal is concurrency / latency calls a second, and the figure is the share
 *   of it reached over the run;
 * - non-judge overhead: the same dataset with the offline lexical judge
 *   (no judge latency at all), as wall time per case.
 *
 *   npm run bench:pipeline -- [--cases 300] [--concurrency 16] [--latency 200]
 */
const { values } = benchArgs('bench:pipeline', {
  options: {
    cases: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '16' },
    latency: { type: 'string', default: '200' },
    'overhead-cases': { type: 'string', default: '2000' },
  },
});
// The ideal throughput divides by the latency.
const options = benchOptions(
  'bench:pipeline',
  z.object({
    cases: wholeNumber(1),
    concurrency: wholeNumber(1, MAX_CONCURRENCY),
    latency: positiveNumber(),
    'overhead-cases': wholeNumber(1),
  }),
  values,
);
const { cases, concurrency } = options;
const latencyMs = options.latency;

const folder = await mkdtemp(join(tmpdir(), 'assay-bench-'));
const silent = (usage: () => Record<string, unknown>) =>
  new Progress({ write: () => true, isTTY: false } as unknown as NodeJS.WriteStream, usage as never);

async function writeDataset(path: string, count: number): Promise<void> {
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    for (const engine of ['bm25', 'dense']) {
      lines.push(
        JSON.stringify({
          request_id: `q${index}`,
          request: `question number ${index} about topic ${index % 17}`,
          engine,
          response: `answer ${index} from ${engine}`,
          retrieved_context: [0, 1, 2].map((rank) => ({
            doc_uri: `d${index}-${engine}-${rank}`,
            content: `passage ${rank} for question ${index} by ${engine}`,
          })),
          expected_retrieved_context: [{ doc_uri: `d${index}-dense-0`, grade: 2 }],
        }),
      );
    }
  }
  await writeFile(path, `${lines.join('\n')}\n`);
}

try {
  // Judge throughput
  const answeredAt: number[] = [];
  const server = await startOpenAiTestServer({
    oracle: () => {
      answeredAt.push(performance.now());
      return { json: { rationale: 'ok', rating: 'yes' } };
    },
    faults: { slow: 1, slowMs: latencyMs },
  });
  const dataset = join(folder, 'throughput.jsonl');
  await writeDataset(dataset, cases);
  const started = performance.now();
  await runPipeline(
    {
      datasetPath: dataset,
      suite: 'bench',
      config: configFileSchema.parse({ judges: ['chunk_relevance'], judge: { concurrency } }),
      strict: false,
      noCache: true,
      concurrency,
      outFolder: join(folder, 'out-throughput'),
      environment: { OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'bench' },
    },
    embeddedInfrastructure(join(folder, 'store-throughput'), 5),
    silent,
  );
  const seconds = (performance.now() - started) / 1000;
  const calls = server.answered();
  await server.close();
  // The judging window: from the first call's start to the last call's end.
  const window = ((answeredAt.at(-1) ?? 0) - (answeredAt[0] ?? 0)) / 1000 + latencyMs / 1000;
  const ideal = concurrency / (latencyMs / 1000);
  console.log(
    `judge throughput: ${calls} calls judged in ${window.toFixed(2)} s = ${(calls / window).toFixed(1)} calls/s (whole run ${seconds.toFixed(2)} s);`,
  );
  console.log(
    `  ideal ${ideal.toFixed(1)} calls/s (concurrency ${concurrency} / ${latencyMs} ms): ${((100 * calls) / window / ideal).toFixed(1)}% (target >= 90%)`,
  );

  // Non-judge overhead
  const overheadCases = options['overhead-cases'];
  const overheadDataset = join(folder, 'overhead.jsonl');
  await writeDataset(overheadDataset, overheadCases);
  const overheadStarted = performance.now();
  await runPipeline(
    {
      datasetPath: overheadDataset,
      suite: 'bench',
      config: configFileSchema.parse({ judges: ['document_recall'] }),
      strict: false,
      noCache: true,
      concurrency,
      outFolder: join(folder, 'out-overhead'),
      environment: {},
    },
    embeddedInfrastructure(join(folder, 'store-overhead'), 5),
    silent,
  );
  const overheadSeconds = (performance.now() - overheadStarted) / 1000;
  console.log(
    `non-judge overhead: ${overheadCases} cases in ${overheadSeconds.toFixed(2)} s = ${((1000 * overheadSeconds) / overheadCases).toFixed(2)} ms a case ` +
      '(ingest, queue, ground-truth metrics, result write, reduce, report; target <= 2 ms)',
  );
} finally {
  await rm(folder, { recursive: true, force: true });
}
