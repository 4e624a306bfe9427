import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { embeddedInfrastructure, type EmbeddedSpool, type Infrastructure } from '../../cli/run/store-and-queues.js';
import { runPipeline, type PipelineRun } from '../../cli/run/run-pipeline.js';
import { configFileSchema } from '../../shared/config/index.js';
import { sendAll } from '../../shared/ports/work-queue.js';
import { reportSchema } from '../../shared/schema/report.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { runCli } from '../support/run-cli.js';
import { startOpenAiTestServer, type FaultPlan, type Oracle, type OpenAiTestServer } from '../support/openai-test-server.js';
import { silentProgress } from '../support/silent-progress.js';
import { SimulatedClock } from '../support/simulated-clock.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

const DATASET = join(import.meta.dirname, '..', '..', 'examples', 'datasets', 'search-assistant.jsonl');
const JUDGES = ['chunk_relevance', 'graded_relevance', 'correctness', 'groundedness', 'document_recall'];

let server: OpenAiTestServer;
/** Numbers each run's output folder within a test. */
let runs = 0;
let folder: TempFolder;
beforeEach(async () => {
  server = await startOpenAiTestServer({ oracle: catalogOracle });
  folder = await createTempFolder();
});
afterEach(async () => {
  await server.close();
  await folder.remove();
});

async function run(
  options: {
    store?: string;
    faults?: FaultPlan;
    oracle?: Oracle;
    afterIngest?: PipelineRun['afterIngest'];
    noCache?: boolean;
    spool?: EmbeddedSpool;
  } = {},
) {
  if (options.faults) server.setFaults(options.faults);
  if (options.oracle) server.setOracle(options.oracle);
  const store = options.store ?? join(folder.path, 'store');
  const out = join(folder.path, `out-${++runs}`);
  // The run's waits (a failed case's visibility timeout, the checks) on simulated time.
  const clock = new SimulatedClock();
  const result = await runPipeline(
    {
      datasetPath: DATASET,
      suite: 'example',
      config: configFileSchema.parse({ judges: JUDGES, judge: { max_retries: 6 } }),
      strict: false,
      noCache: options.noCache ?? false,
      concurrency: 4,
      outFolder: out,
      environment: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' },
      afterIngest: options.afterIngest,
    },
    embeddedInfrastructure(store, 1, options.spool, clock),
    silentProgress,
  ).finally(() => clock.stop());
  if (result.kind !== 'reported') throw new Error(`the run ended ${result.kind}, without a report`);
  const report = reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
  const cases = (await readFile(join(out, 'cases.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { case_id: string; engine: string });
  return { result, report, cases, out };
}

describe('the pipeline, embedded', () => {
  it('judges every case of the example dataset and writes the report files', async () => {
    const { result, report, cases } = await run();
    expect(report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    expect(Object.keys(report.engines)).toEqual(['bm25', 'hybrid']);
    expect(report.engines.hybrid).toMatchObject({
      'retrieval/llm_judged/chunk_relevance/precision/count': 12,
      'retrieval/ground_truth/ndcg@10/count': 9,
      'response/llm_judged/correctness/rating/count': 9,
    });
    expect(report.engines.bm25?.['retrieval/llm_judged/chunk_relevance/precision/average']).toEqual(expect.any(Number));
    expect(report.judges.chunk_relevance?.calls).toBeGreaterThan(0);
    expect(cases).toHaveLength(24);
    expect(result.files.map((file) => file.split('/').at(-1))).toEqual([
      'report.json',
      'report.md',
      'report.html',
      'cases.jsonl',
      'judgments.qrels',
    ]);
  });

  it('makes no judge call when the same dataset runs again over the same store', async () => {
    const first = await run();
    const callsAfterFirst = server.log.length;
    const second = await run();
    expect(server.log.length).toBe(callsAfterFirst);
    expect(second.report.engines).toEqual(first.report.engines);
    expect(Object.values(second.report.judges).every((usage) => usage.calls === 0)).toBe(true);
  });

  it('gives the same metrics under 20% rate limits and 5% server errors as a clean run', async () => {
    const clean = await run({ noCache: true });
    const faulty = await run({ noCache: true, faults: { rateLimit: 0.2, serverError: 0.05, seed: 3, retryAfterMs: 1 } });
    expect(server.log.some((entry) => entry.outcome === '429')).toBe(true);
    expect(faulty.report.engines).toEqual(clean.report.engines);
    expect(faulty.report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
  });

  it('gives the same report when the cases queue spools every message to disk', async () => {
    // Prepare: no message body held in memory past the first, one spool file per message
    const inMemory = await run();

    // Act
    const spooled = await run({ spool: { memoryBytes: 0, segmentBytes: 1, parent: join(folder.path, 'spools') } });

    // Assess
    expect(spooled.report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    expect(spooled.report.engines).toEqual(inMemory.report.engines);
    expect(spooled.cases).toEqual(inMemory.cases);
  });

  it('counts every case once when every message is delivered twice', async () => {
    const duplicateEveryCase = async (_runId: string, infrastructure: Infrastructure) => {
      const queue = infrastructure.cases as unknown as { bodies(): string[] };
      await sendAll(
        infrastructure.cases,
        queue.bodies().map((body, index) => ({ id: String(index % 10), body })),
      );
    };
    const { report, cases } = await run({ afterIngest: duplicateEveryCase });
    expect(report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    expect(cases).toHaveLength(24);
  });

  it('ends a case as a failure, with its last error, when the judge keeps failing it; the other cases complete', async () => {
    // Prepare: every judgment of one request fails on the server side (the test server answers a
    // throwing oracle with a 500 the SDK does not retry), so the case fails on each of its 3 receives
    const oracle: Oracle = (request, index) => {
      if (JSON.stringify(request.messages).includes('How do I move old objects to cheaper storage?'))
        throw new Error('judge down for this case');
      return catalogOracle(request, index);
    };

    // Act
    const { report } = await run({ oracle });

    // Assess
    expect(report.cases).toEqual({ total: 12, evaluated: 11, failed: 1, missing: 0, judge_failed: 0 });
    expect(report.failed_cases).toEqual([
      { case_id: 'q08', error: expect.stringMatching(/judge server answered 500: .*judge down for this case/) },
    ]);
  });

  it('redrives the failed case once the judge is back, and rewrites the report', async () => {
    // Prepare: a run where one case failed
    const store = join(folder.path, 'store');
    const down: Oracle = (request, index) => {
      if (JSON.stringify(request.messages).includes('How do I move old objects to cheaper storage?'))
        throw new Error('judge down for this case');
      return catalogOracle(request, index);
    };
    const { result } = await run({ store, oracle: down });
    server.setOracle(catalogOracle);

    // Act
    const out = join(folder.path, 'redriven');
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' });
    const redrive = await runCli(['redrive', result.runId, '--store', store, '--out', out]).finally(() => {
      process.env = saved;
    });

    // Assess
    expect(redrive.stderr).toContain('1 failed case sent again: q08');
    const report = reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
    expect(report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    expect(report.run_id).toBe(result.runId);
  });

  it('redrives a case lacking a judgment once the judge answers again, keeping the calls its first result paid', async () => {
    // Prepare: a run whose judge answers no verdict for one request's judgments
    const store = join(folder.path, 'store-lacking');
    const garbled: Oracle = (request, index) =>
      JSON.stringify(request.messages).includes('How do I move old objects to cheaper storage?')
        ? { text: 'no verdict today' }
        : catalogOracle(request, index);
    const { result, report: first } = await run({ store, oracle: garbled });
    server.setOracle(catalogOracle);
    const requestsBefore = server.log.length;

    // Act
    const out = join(folder.path, 'rejudged');
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' });
    const redrive = await runCli(['redrive', result.runId, '--store', store, '--out', out]).finally(() => {
      process.env = saved;
    });

    // Assess: the case was judged again and lacks nothing now
    expect(first.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 1 });
    expect(redrive.stderr).toContain('0 failed cases sent again: none; 1 case lacking a judgment sent again: q08');
    const report = reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
    expect(report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    expect(report.failed_cases).toEqual([]);
    // Every call is still counted: the first run's, the failed ones among them, and the redrive's new ones;
    // the case's judgments that had answered came back from the cache, so only the failed ones were asked again.
    const asked = server.log.length - requestsBefore;
    expect(asked).toBeGreaterThan(0);
    const total = (of: typeof report) => Object.values(of.judges).reduce((sum, usage) => sum + usage.calls + usage.retries, 0);
    expect(total(report)).toBe(total(first) + asked);
    expect(Object.values(report.judges).reduce((sum, usage) => sum + usage.cache_hits, 0)).toBeGreaterThan(
      Object.values(first.judges).reduce((sum, usage) => sum + usage.cache_hits, 0),
    );
  });

  it('completes every case, with error messages, when the judge answers garbage, each case listed as lacking its judgments', async () => {
    const { report } = await run({ faults: { garbage: 1 }, noCache: true });
    // Every case stays evaluated (its ground truth counts), and lacks the judgment of every LLM judge, on both engines.
    expect(report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 12 });
    const entriesByJudge: Record<string, number> = {};
    for (const entry of report.failed_cases) {
      expect(entry.engines).toEqual(['bm25', 'hybrid']);
      entriesByJudge[entry.judge ?? 'none'] = (entriesByJudge[entry.judge ?? 'none'] ?? 0) + 1;
    }
    // correctness needs the expected response, which 9 of the 12 requests have.
    expect(entriesByJudge).toEqual({ chunk_relevance: 12, correctness: 9, graded_relevance: 12, groundedness: 12 });
    expect(report.engines.bm25).toMatchObject({
      'response/llm_judged/correctness/error_count': 9,
      'retrieval/llm_judged/chunk_relevance/error_count': 12,
      'retrieval/ground_truth/ndcg@10/count': 9,
    });
    expect(report.engines.bm25).not.toHaveProperty('retrieval/llm_judged/chunk_relevance/precision/average');
    expect(report.judges.correctness?.errors).toBe(18);
  });

  it('sends a poison message to the dead-letter queue without losing or double-counting a case', async () => {
    const poison = async (_runId: string, infrastructure: Infrastructure) => {
      await sendAll(infrastructure.cases, [{ id: 'poison', body: '{"kind": "case", "run_id": "' }]);
    };
    const store = join(folder.path, 'store');
    const { report } = await run({ store, afterIngest: poison });
    expect(report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
  });
});
