import { z } from 'zod';
import { historyKeys } from '../shared/history/history-keys.js';
import { historyRowOf } from '../shared/history/history-row.js';
import { recordRunHistory } from '../shared/history/write-history.js';
import { MemoryStore } from '../shared/ports/memory-store.js';
import type { ObjectStore } from '../shared/ports/object-store.js';
import type { Report } from '../shared/schema/report.js';
import { seededRandom } from '../shared/statistics/seeded-random.js';
import { benchArgs, benchOptions, nonNegativeNumber, wholeNumber } from './bench-options.js';
import { LatencyStore } from './scale/latency-store.js';

/**
 * What the reducer's history step costs once a suite has --nights nights:
 * the 1,000th report's recordRunHistory (its row written, every row read
 * back twice, history.json, history.html and the suite's card written), in
 * memory (the CPU alone) and with --latency ms added to every request (S3
 * from a Lambda), and the sizes of what it writes. Each night has the
 * statistics of a run with LLM judges over --engines engines: the nine
 * ground-truth averages, two judge ratings and four chunk-judge averages
 * with their intervals, latency, error counts, and two judges' agreement.
 *
 *   npm run bench:history -- [--nights 1000] [--engines 2] [--latency 20] [--repeat 5]
 */
const { values } = benchArgs('bench:history', {
  options: {
    nights: { type: 'string', default: '1000' },
    engines: { type: 'string', default: '2' },
    latency: { type: 'string', default: '20' },
    repeat: { type: 'string', default: '5' },
  },
});
const options = benchOptions(
  'bench:history',
  z.object({ nights: wholeNumber(1), engines: wholeNumber(1), latency: nonNegativeNumber(), repeat: wholeNumber(1) }),
  values,
);
const { nights, repeat } = options;
const engineCount = options.engines;
const latencyMs = options.latency;
const SUITE = 'nightly';

const GROUND_TRUTH = [
  'precision@5',
  'precision@10',
  'recall@5',
  'recall@10',
  'ndcg@5',
  'ndcg@10',
  'average_precision',
  'reciprocal_rank',
  'document_recall',
];
const HEADLINE = [
  ...GROUND_TRUTH.map((metric) => `retrieval/ground_truth/${metric}/average`),
  'response/llm_judged/correctness/rating/percentage',
  'response/llm_judged/groundedness/rating/percentage',
  'retrieval/llm_judged/chunk_relevance/precision/average',
  'retrieval/llm_judged/chunk_relevance/average_precision/average',
  'retrieval/llm_judged/graded_relevance/ndcg@5/average',
  'retrieval/llm_judged/graded_relevance/ndcg@10/average',
];
const ERROR_COUNTS = [
  'engine/error_count',
  'response/llm_judged/correctness/error_count',
  'response/llm_judged/groundedness/error_count',
  'retrieval/llm_judged/chunk_relevance/error_count',
  'retrieval/llm_judged/graded_relevance/error_count',
];

function nightReport(night: number, random: ReturnType<typeof seededRandom>): Report {
  const fraction = () => random.nextUint32() / 2 ** 32;
  const engines = Object.fromEntries(
    Array.from({ length: engineCount }, (_, index) => {
      const statistics: Record<string, number> = {};
      for (const name of HEADLINE) {
        const value = 0.3 + 0.5 * fraction();
        Object.assign(statistics, {
          [name]: value,
          [`${name}/ci_low`]: value - 0.04 * fraction(),
          [`${name}/ci_high`]: value + 0.04 * fraction(),
          [`${name.replace(/\/(average|percentage)$/, '')}/count`]: 500,
        });
      }
      for (const name of ERROR_COUNTS) statistics[name] = random.nextBelow(3);
      Object.assign(statistics, {
        'engine/latency_ms/p50': 80 + random.nextBelow(40),
        'engine/latency_ms/p95': 300 + random.nextBelow(200),
        'engine/latency_ms/max': 900 + random.nextBelow(500),
      });
      return [`engine-${index + 1}`, statistics];
    }),
  );
  const kappa = () => ({
    pairs: 2000,
    exact_agreement: fraction(),
    cohen_kappa: fraction(),
    weighted_kappa: fraction(),
    binary: { level: 1, kappa: fraction(), agreement: fraction(), precision: fraction(), recall: fraction() },
    confusion: {},
    reasons: {},
  });
  return {
    run_id: `r-${night.toString(16).padStart(16, '0')}`,
    suite: SUITE,
    dataset: 'datasets/nightly/queries.jsonl',
    config_hash: '0123456789abcdef',
    created_at: new Date(Date.UTC(2024, 0, night, 2)).toISOString(),
    judge: 'gpt-4o-mini at https://api.openai.com/v1',
    cases: { total: 500, evaluated: 500, failed: 0, missing: 0 },
    input_errors: 0,
    engines,
    judges: {},
    missing_cases: [],
    failed_cases: [],
    agreement: { chunk_relevance: kappa(), graded_relevance: kappa() },
    comparison: {
      baseline_run_id: `r-${(night - 1).toString(16).padStart(16, '0')}`,
      baseline_kind: 'previous',
      regressions: night % 30 === 0 ? [{ engine: 'engine-1', metric: 'retrieval/ground_truth/ndcg@10', delta: -0.05, p_value: 0.001 }] : [],
      engines: {},
    },
  };
}

/** A store holding the rows of nights 1 to nights - 1, as their reducers left them. */
async function storeWithHistory(random: ReturnType<typeof seededRandom>): Promise<MemoryStore> {
  const store = new MemoryStore();
  for (let night = 1; night < nights; night++) {
    const report = nightReport(night, random);
    await store.put(historyKeys.row(SUITE, report.created_at, report.run_id), JSON.stringify(historyRowOf(report)));
  }
  return store;
}

async function timed(store: ObjectStore, report: Report): Promise<number> {
  const started = performance.now();
  await recordRunHistory(store, report);
  return performance.now() - started;
}

const random = seededRandom(42);
const base = await storeWithHistory(random);
const last = nightReport(nights, random);
const memoryTimes: number[] = [];
const latencyTimes: number[] = [];
let requests = 0;
for (let round = 0; round < repeat; round++) {
  memoryTimes.push(await timed(base, last));
  const slow = new LatencyStore(base, latencyMs);
  latencyTimes.push(await timed(slow, last));
  requests = slow.requests;
}
const size = async (key: string) => ((await base.get(key))?.byteLength ?? 0) / 1024;
const median = (values: number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] ?? 0;
const range = (values: number[]) => `${Math.min(...values).toFixed(0)} to ${Math.max(...values).toFixed(0)} ms`;
console.log(`history of ${nights} nights, ${engineCount} engines: recording the newest night`);
console.log(`  in memory:           median ${median(memoryTimes).toFixed(0)} ms (${range(memoryTimes)}), ${repeat} rounds`);
console.log(`  ${latencyMs} ms a request:   median ${median(latencyTimes).toFixed(0)} ms (${range(latencyTimes)}), ${requests} requests`);
console.log(
  `  history.json ${(await size(historyKeys.json(SUITE))).toFixed(0)} KiB, history.html ${(await size(historyKeys.html(SUITE))).toFixed(0)} KiB, a row ${(await size(historyKeys.row(SUITE, last.created_at, last.run_id))).toFixed(1)} KiB, the card ${(await size(historyKeys.card(SUITE))).toFixed(1)} KiB`,
);
