import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIngestHandler } from '../../functions/ingest.js';
import { quietTelemetry } from '../support/quiet-telemetry.js';
import { embeddedInfrastructure, type Infrastructure } from '../../cli/run/store-and-queues.js';
import { runPipeline } from '../../cli/run/run-pipeline.js';
import type { TrecCollectionPaths } from '../../cli/run/upload-input.js';
import { configFileSchema } from '../../shared/config/index.js';
import { runKeys } from '../../shared/run/run-identity.js';
import { s3ObjectCreatedEvent } from '../support/lambda-event-source.js';
import { reportSchema, type Report } from '../../shared/schema/report.js';
import { evaluateRun, type MeasureValue } from '../../shared/trec/evaluate.js';
import { selectMeasures } from '../../shared/trec/measure-selection.js';
import { readQrels } from '../../shared/trec/qrels.js';
import { readRun } from '../../shared/trec/run.js';
import { silentProgress } from '../support/silent-progress.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'trec-eval');
const fixture = (name: string): string => join(FIXTURES, name);

/** trec_eval's measure → the report's ground-truth metric. */
const MEASURES = [
  ['map', 'average_precision'],
  ['P_10', 'precision@10'],
  ['ndcg_cut_10', 'ndcg@10'],
  ['recip_rank', 'reciprocal_rank'],
] as const;

let folder: TempFolder;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  await folder.remove();
});

async function runCollection(
  collection: TrecCollectionPaths,
  options: { store?: string; config?: unknown } = {},
): Promise<{ report: Report; runId: string }> {
  const out = join(folder.path, 'out');
  const result = await runPipeline(
    {
      collection,
      suite: 'trec',
      config: configFileSchema.parse(options.config ?? {}),
      strict: false,
      noCache: false,
      concurrency: 4,
      outFolder: out,
      environment: {},
    },
    embeddedInfrastructure(options.store ?? join(folder.path, 'store'), 1),
    silentProgress,
  );
  return { report: reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8'))), runId: result.runId };
}

/** trec_eval without -c, through the evaluator the golden tests hold to trec_eval's bits. */
async function trecEvalSummary(qrelsFile: string, runFile: string): Promise<Record<string, number>> {
  const qrels = await readQrels(qrelsFile);
  const run = await readRun(runFile);
  const selection = selectMeasures(['map', 'P.10', 'ndcg_cut.10', 'recip_rank', 'num_q']);
  if (!qrels.ok || !run.ok || !selection.ok) throw new Error('the fixture could not be read');
  const evaluation = evaluateRun(qrels.value, run.value, selection.value);
  if (!evaluation.ok) throw new Error(evaluation.error);
  return Object.fromEntries(evaluation.value.summary.map((value: MeasureValue) => [value.name, Number(value.value)]));
}

/** The ingest handler as the upload trigger runs it, with the default judges and lenient rows. */
function uploadIngest(infrastructure: Infrastructure) {
  return createIngestHandler(
    {
      store: infrastructure.store,
      cases: infrastructure.cases,
      control: infrastructure.control,
      now: () => new Date('2026-11-23T00:00:00Z'),
      trigger: 'upload',
      configFor: async () => ({ config: { ...configFileSchema.parse({}), strict: false }, judgeSummary: 'none' }),
    },
    quietTelemetry(),
  );
}

describe('assay run on a TREC collection (embedded)', () => {
  it.each(['qrels.test', 'qrels.rel_level'])(
    'reports every run under its tag with the doubles trec_eval computes without -c (%s)',
    async (qrelsName) => {
      // Prepare: results.trunc shares results.test's tag and lacks topic 302
      const runs = [fixture('results.test'), fixture('results.trunc')];

      // Act
      const { report } = await runCollection({ qrels: fixture(qrelsName), runs });

      // Assess
      expect(Object.keys(report.engines)).toEqual(['STANDARD', 'results.trunc:STANDARD']);
      for (const [engine, runFile] of [
        ['STANDARD', runs[0]],
        ['results.trunc:STANDARD', runs[1]],
      ] as const) {
        const expected = await trecEvalSummary(fixture(qrelsName), runFile as string);
        const statistics = report.engines[engine] ?? {};
        for (const [trecName, assayName] of MEASURES) {
          expect(statistics[`retrieval/ground_truth/${assayName}/average`], `${engine} ${trecName}`).toBe(expected[trecName]);
          // Averaged over the topics the run retrieved for, as trec_eval without -c: 3 and 2.
          expect(statistics[`retrieval/ground_truth/${assayName}/count`], `${engine} ${trecName} topics`).toBe(expected.num_q);
        }
      }
      expect(report.cases).toEqual({ total: 3, evaluated: 3, failed: 0, missing: 0, judge_failed: 0 });
      expect(report.judge).toMatch(/^no judges: ground-truth metrics/);
    },
  );

  it('matches the full-precision values trec_eval printed for results.test (out.measures.q.test.hp)', async () => {
    // Prepare
    const golden = await readFile(fixture('out.measures.q.test.hp'), 'utf8');
    const goldenValue = (name: string): number => Number(new RegExp(`^${name}\\s+all\\s+(\\S+)$`, 'm').exec(golden)?.[1]);

    // Act
    const { report } = await runCollection({ qrels: fixture('qrels.test'), runs: [fixture('results.test')] });

    // Assess
    for (const [trecName, assayName] of MEASURES) {
      expect(report.engines.STANDARD?.[`retrieval/ground_truth/${assayName}/average`], trecName).toBe(goldenValue(trecName));
    }
  });

  it('judges the pooled top chunks of every run with queries and a corpus', async () => {
    // Prepare: two runs of two topics, every document in the corpus; q3 is judged but no run retrieved for it
    const qrels = await folder.write('qrels.txt', 'q1 0 d1 2\nq1 0 d2 0\nq2 0 d3 1\nq3 0 d1 1\n');
    const bm25 = await folder.write('bm25.txt', 'q1 Q0 d1 1 3.0 bm25\nq1 Q0 d2 2 2.0 bm25\nq2 Q0 d3 1 1.0 bm25\nq2 Q0 d4 2 0.5 bm25\n');
    const dense = await folder.write('dense.txt', 'q1 Q0 d2 1 0.9 dense\nq1 Q0 d1 2 0.8 dense\nq2 Q0 d4 1 0.7 dense\n');
    const queries = await folder.write('queries.tsv', 'q1\trotate an access key\nq2\tdelete a bucket\n');
    const corpus = await folder.write(
      'corpus.jsonl',
      [
        { _id: 'd1', text: 'To rotate an access key, create a second key, switch to it, then delete the first.' },
        { _id: 'd2', text: 'Billing reports arrive monthly.' },
        { _id: 'd3', text: 'Delete a bucket after emptying it.' },
        { _id: 'd4', text: 'Opening hours of the support desk.' },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );

    // Act: no OPENAI_API_KEY, so the lexical judge
    const { report } = await runCollection({ qrels, runs: [bm25, dense], queries, corpus });

    // Assess
    expect(Object.keys(report.engines)).toEqual(['bm25', 'dense']);
    expect(report.cases).toEqual({ total: 3, evaluated: 3, failed: 0, missing: 0, judge_failed: 0 });
    for (const engine of ['bm25', 'dense']) {
      expect(report.engines[engine]?.['retrieval/ground_truth/average_precision/count'], engine).toBe(2);
      expect(report.engines[engine]?.['retrieval/lexical/chunk_relevance/precision/count'], engine).toBe(2);
      expect(report.engines[engine]?.['retrieval/lexical/chunk_relevance/error_count'] ?? 0, engine).toBe(0);
    }
    // bm25 ranks the relevant d1 and d3 first; dense ranks d1 second for q1 (1/2) and misses q2 (0): (0.5 + 0) / 2.
    expect(report.engines.bm25?.['retrieval/ground_truth/reciprocal_rank/average']).toBe(1);
    expect(report.engines.dense?.['retrieval/ground_truth/reciprocal_rank/average']).toBe(0.25);
    // The judge read the chunks' texts: bm25's top chunks match the queries' words half the time
    // (d1 and d3 of four), dense's a quarter (d1 of its two for q1, nothing for q2).
    expect(report.engines.bm25?.['retrieval/lexical/chunk_relevance/precision/average']).toBe(0.5);
    expect(report.engines.dense?.['retrieval/lexical/chunk_relevance/precision/average']).toBe(0.25);
  });

  it("ignores the uploads of a collection's files: only its manifest starts a run", async () => {
    // Prepare
    const store = join(folder.path, 'store');
    const infrastructure = embeddedInfrastructure(store, 1);
    const ingest = uploadIngest(infrastructure);
    await infrastructure.store.upload('datasets/trec/qrels.trec/runs/1/results.test', fixture('results.test'));

    // Act
    const outcomes = await ingest(s3ObjectCreatedEvent(infrastructure.bucket, 'datasets/trec/qrels.trec/runs/1/results.test', '"etag"', 0));

    // Assess
    expect(outcomes).toEqual([]);
  });

  it.each([
    ['by default', {}, 100],
    ['to run.list_depth', { run: { list_depth: 20 } }, 20],
    ['at least as deep as the judges read', { run: { list_depth: 20, judge_depth: 30 } }, 30],
    ['whole when run.list_depth passes its length', { run: { list_depth: 5_000 } }, undefined],
  ])('lists each run in cases.jsonl down to a depth %s, while the metrics use the whole list', async (_name, config, depth) => {
    // Prepare: results.test ranks 1,000 documents or fewer a topic
    const runs = [fixture('results.test')];
    const run = await readRun(runs[0] as string);
    if (!run.ok) throw new Error('the fixture could not be read');

    // Act
    const { report } = await runCollection({ qrels: fixture('qrels.test'), runs }, { config });

    // Assess
    const lines = (await readFile(join(folder.path, 'out', 'cases.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { request_id: string; retrieved: { rank: number }[] });
    const lengths = lines.map((line) => line.retrieved.length);
    const whole = lines.map((line) => run.value.topics.get(line.request_id)?.scores.length);
    expect(lengths).toEqual(whole.map((length) => Math.min(length ?? 0, depth ?? Number.POSITIVE_INFINITY)));
    expect(Math.max(...(whole as number[]))).toBeGreaterThan(100);
    expect(report.engines.STANDARD?.['retrieval/ground_truth/average_precision/average']).toBe(
      (await trecEvalSummary(fixture('qrels.test'), runs[0] as string)).map,
    );
  });

  it('reports a file changed after its manifest was written as an input error naming it', async () => {
    // Prepare: a first run stores the collection; then a run file is replaced behind the manifest's back
    const store = join(folder.path, 'store');
    const first = await runCollection({ qrels: fixture('qrels.test'), runs: [fixture('results.test')] }, { store });
    const manifestKey = 'datasets/trec/qrels.trec/collection.json';
    const replaced = await folder.write('replaced.txt', '301 Q0 FBIS3-10082 1 1.0 other\n');
    const infrastructure = embeddedInfrastructure(store, 1);
    await infrastructure.store.upload('datasets/trec/qrels.trec/runs/1/results.test', replaced);
    const manifestPath = join(folder.path, 'collection.json');
    await writeFile(manifestPath, (await infrastructure.store.get(manifestKey)) as Uint8Array);

    // Act: the same manifest uploaded again, under another trigger
    const ingest = uploadIngest(infrastructure);
    const { etag } = await infrastructure.store.upload(manifestKey, manifestPath);
    const [outcome] = await ingest(s3ObjectCreatedEvent(infrastructure.bucket, manifestKey, `"${etag}"`, 0));

    // Assess
    expect(first.report.engines.STANDARD).toBeDefined();
    expect(outcome).toMatchObject({ kind: 'started', inputErrors: 1 });
    const errors = new TextDecoder().decode(await infrastructure.store.get(runKeys.inputErrors(outcome?.runId ?? '')));
    expect(JSON.parse(errors.trim())).toMatchObject({
      file: 'datasets/trec/qrels.trec/runs/1/results.test',
      message: 'runs/1/results.test is not the file the manifest names (its SHA-256 differs)',
    });
  });
});
