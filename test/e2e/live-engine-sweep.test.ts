import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadCorpus, startBm25Server } from '../../examples/engines/bm25-server.js';
import { reportSchema, type Report } from '../../shared/schema/report.js';
import { startOpenAiTestServer, type ChatRequest, type OpenAiTestServer } from '../support/openai-test-server.js';
import { runCli } from '../support/run-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * A sweep against a real local search service (the example BM25 engine):
 * `assay run QUERIES --config sweep.yaml` asks every engine variant itself,
 * judges the pooled hits, and scores each variant. The judge answers from the
 * dataset's own labels, so its chunk precision must equal P@10 exactly, and
 * the ground-truth metrics must equal trec_eval's on the rankings the service
 * returned (computed here by `assay ir-metrics`, golden-tested against it).
 */
const ROOT = join(import.meta.dirname, '..', '..');
const QUERIES = join(ROOT, 'examples', 'datasets', 'queries.jsonl');
const ENGINES = ['bm25-title', 'bm25@b=0.3', 'bm25@b=0.75'];

interface QueryRow {
  request_id: string;
  request: string;
  expected_retrieved_context: { doc_uri: string; grade: number }[];
}
interface SweepLine {
  case_id: string;
  request_id: string;
  engine: string;
  metrics: Record<string, unknown>;
  retrieved?: { doc_uri: string; rank: number; score?: number }[];
}

let folder: TempFolder;
let judge: OpenAiTestServer;
let service: Server | undefined;
let queries: QueryRow[];
beforeEach(async () => {
  folder = await createTempFolder();
  queries = (await readFile(QUERIES, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as QueryRow);
  judge = await startOpenAiTestServer({ oracle: qrelsOracle() });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await judge.close();
  await new Promise((resolve) => (service === undefined ? resolve(undefined) : service.close(resolve)));
  service = undefined;
  await folder.remove();
});

/** A chunk_relevance judge that answers from the labels: "yes" when the (query, document) pair has a grade of 1 or more. */
function qrelsOracle() {
  const corpus = loadCorpus(join(ROOT, 'examples', 'engines', 'corpus.jsonl'));
  return (request: ChatRequest) => {
    const prompt = request.messages.map((message) => message.content ?? '').join('\n');
    const query = queries.find((row) => prompt.includes(row.request));
    const document = corpus.find((candidate) => prompt.includes(candidate.text));
    const grade = query?.expected_retrieved_context.find((label) => label.doc_uri === document?.id)?.grade ?? 0;
    return { json: { rationale: `graded ${grade} by the assessors`, rating: grade >= 1 ? 'yes' : 'no' } };
  };
}

async function startService(options: { failRate?: number; degraded?: boolean } = {}): Promise<number> {
  service = await startBm25Server({
    port: 0,
    host: '127.0.0.1',
    delayMs: 0,
    failRate: options.failRate ?? 0,
    degraded: options.degraded ?? false,
    documents: loadCorpus(join(ROOT, 'examples', 'engines', 'corpus.jsonl')),
  });
  return (service.address() as AddressInfo).port;
}

async function sweep(port: number, out: string, store: string) {
  const config = (await readFile(join(ROOT, 'examples', 'configs', 'sweep.yaml'), 'utf8'))
    .replaceAll('127.0.0.1:8700', `127.0.0.1:${port}`)
    .replace('judges: [chunk_relevance, document_recall]', 'judges: [chunk_relevance]');
  const configPath = await folder.write(`sweep-${port}.yaml`, config);
  vi.stubEnv('OPENAI_API_KEY', 'test-key');
  vi.stubEnv('OPENAI_BASE_URL', judge.baseUrl);
  vi.stubEnv('ASSAY_JUDGE_MODEL', 'judge-model');
  const result = await runCli(['run', QUERIES, '--config', configPath, '--suite', 'nightly', '--store', store, '--out', out]);
  expect(result.stderr).not.toMatch(/ {4}at /);
  expect(result.exitCode).toBe(0);
  const report: Report = reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
  const lines = (await readFile(join(out, 'cases.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SweepLine);
  return { report, lines };
}

/** trec_eval's summary (without -c) of one engine's returned rankings, through `assay ir-metrics --json`. */
async function trecEvalOf(engine: string, lines: readonly SweepLine[]): Promise<Record<string, number>> {
  const qrels = queries.flatMap((row) =>
    row.expected_retrieved_context.map((label) => `${row.request_id} 0 ${label.doc_uri} ${label.grade}`),
  );
  // Scores that keep the service's order exactly, so trec_eval ranks what the service ranked.
  const run = lines
    .filter((line) => line.engine === engine)
    .flatMap((line) => (line.retrieved ?? []).map((hit) => `${line.request_id} Q0 ${hit.doc_uri} ${hit.rank} ${1000 - hit.rank} run`));
  const qrelsPath = await folder.write('qrels.txt', `${qrels.join('\n')}\n`);
  const runPath = await folder.write(`run-${engine}.txt`, `${run.join('\n')}\n`);
  const result = await runCli([
    'ir-metrics',
    '--json',
    '-m',
    'map',
    '-m',
    'P.10',
    '-m',
    'ndcg_cut.10',
    '-m',
    'recip_rank',
    qrelsPath,
    runPath,
  ]);
  return (JSON.parse(result.stdout) as { all: Record<string, number> }).all;
}

describe('a sweep of live engines', () => {
  it('reports each variant under its name with trec_eval-exact ground truth, judged once per pooled pair, through 503s', async () => {
    // Prepare: the service answers 503 to one search in eight
    const port = await startService({ failRate: 0.125 });

    // Act
    const { report, lines } = await sweep(port, join(folder.path, 'out'), join(folder.path, 'store'));

    // Assess: every variant, every case, the latency keys
    expect(Object.keys(report.engines).sort()).toEqual(ENGINES);
    expect(report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    for (const engine of ENGINES) {
      const statistics = report.engines[engine] ?? {};
      expect(Object.keys(statistics)).toEqual(
        expect.arrayContaining(['engine/latency_ms/p50', 'engine/latency_ms/p95', 'engine/latency_ms/max']),
      );
      expect(statistics['engine/latency_ms/count']).toBe(12);
      // trec_eval's numbers on the rankings the service returned
      const trecEval = await trecEvalOf(engine, lines);
      expect(statistics['retrieval/ground_truth/average_precision/average']).toBe(trecEval.map);
      expect(statistics['retrieval/ground_truth/precision@10/average']).toBe(trecEval.P_10);
      expect(statistics['retrieval/ground_truth/ndcg@10/average']).toBe(trecEval.ndcg_cut_10);
      expect(statistics['retrieval/ground_truth/reciprocal_rank/average']).toBe(trecEval.recip_rank);
      // A judge answering from the labels makes chunk precision P@10 on every query with 10 hits
      for (const line of lines.filter((candidate) => candidate.engine === engine && candidate.retrieved?.length === 10)) {
        expect(line.metrics['retrieval/llm_judged/chunk_relevance/precision']).toBe(line.metrics['retrieval/ground_truth/precision@10']);
      }
    }
    // No more judge calls than unique pooled (query, document) pairs in the top 10 of each variant
    const pooled = new Set(lines.flatMap((line) => (line.retrieved ?? []).slice(0, 10).map((hit) => `${line.request_id}|${hit.doc_uri}`)));
    expect(judge.answered()).toBeLessThanOrEqual(pooled.size);
    expect(report.judges.chunk_relevance?.calls).toBe(judge.answered());
  }, 120_000);

  it('names the degraded engine and its ndcg@10 in the comparison when the service gets worse', async () => {
    // Prepare: a first nightly run against the healthy service, then the service ships a bad release
    const store = join(folder.path, 'store');
    await sweep(await startService(), join(folder.path, 'night-1'), store);
    await new Promise((resolve) => service?.close(resolve));
    const degradedPort = await startService({ degraded: true });

    // Act: the same suite the next night
    const { report } = await sweep(degradedPort, join(folder.path, 'night-2'), store);

    // Assess
    const regressions = report.comparison?.regressions ?? [];
    expect(regressions).toEqual(
      expect.arrayContaining([expect.objectContaining({ engine: 'bm25@b=0.75', metric: 'retrieval/ground_truth/ndcg@10' })]),
    );
    expect(regressions.every((regression) => ENGINES.includes(regression.engine))).toBe(true);
  }, 120_000);
});
