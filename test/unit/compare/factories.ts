import type { RunFiles } from '../../../shared/compare/compare-runs.js';
import { ndcgAt } from '../../../shared/metrics/ndcg-cut.js';
import { reportInOnePass } from '../../../shared/report/aggregate.js';
import { caseLines } from '../../../shared/report/cases-jsonl.js';
import type { CaseResult, Manifest } from '../../../shared/schema/run-records.js';
import { seededRandom, type SeededRandom } from '../../../shared/statistics/seeded-random.js';

/** A per-case metric value as a case result holds it. */
export type Value = CaseResult['engines'][string][string];

/** One case of a hand-made run: its request_id and each engine's metrics. */
export interface CaseSpec {
  requestId: string;
  engines: Record<string, Record<string, Value>>;
}

export const NDCG = 'retrieval/ground_truth/ndcg@10';
export const CORRECTNESS = 'response/llm_judged/correctness/rating';

/**
 * A run's report folder as the reducer would write it: the report built from
 * the cases by `reportInOnePass` and the lines of cases.jsonl by `caseLines`, so
 * the two agree as in a real run. Case ids are `c-<request_id>`.
 */
export function runFiles(runId: string, cases: readonly CaseSpec[]): RunFiles {
  const results: CaseResult[] = cases.map((spec) => ({
    run_id: runId,
    case_id: `c-${spec.requestId}`,
    request_id: spec.requestId,
    request: `question ${spec.requestId}`,
    engines: spec.engines,
    skipped: [],
    judge_usage: {},
  }));
  const engines = [...new Set(cases.flatMap((spec) => Object.keys(spec.engines)))].sort();
  const manifest: Manifest = {
    run_id: runId,
    suite: 'faq',
    dataset: { key: 'datasets/faq/cases.jsonl', etag: '"etag-1"' },
    trigger: 'upload',
    config: {},
    config_hash: 'hash-1',
    created_at: '2025-01-02T03:04:05.000Z',
    deadline: '2025-01-02T04:04:05.000Z',
    cases: results.length,
    engines,
    input_errors: 0,
    judge: 'lexical judge (non-LLM approximations)',
  };
  const report = reportInOnePass({ manifest, results, failures: [], caseIds: results.map((result) => result.case_id) });
  return { report, cases: caseLines(results) };
}

/** One metric of one engine on request ids q1, q2, ...: `values[i]` is the value on q(i+1). */
export function oneMetric(engine: string, metric: string, values: readonly Value[]): CaseSpec[] {
  return values.map((value, index) => ({ requestId: `q${index + 1}`, engines: { [engine]: { [metric]: value } } }));
}

/**
 * Ten retrieved documents per case: 2 to 4 relevant ones (grade 1 or 2) and
 * irrelevant ones (grade 0) for the rest, with every relevant document in
 * the qrels retrieved.
 */
interface Retrieval {
  relevant: number[];
  irrelevant: number;
}

function retrieval(random: SeededRandom): Retrieval {
  const relevantCount = 2 + random.nextBelow(3);
  return { relevant: Array.from({ length: relevantCount }, () => 1 + random.nextBelow(2)), irrelevant: 10 - relevantCount };
}

/** ndcg@10 of a ranking that puts the relevant documents first, then swaps one of them with a document up to 3 ranks lower. */
function goodRankingNdcg(documents: Retrieval, random: SeededRandom): number {
  const grades = [...documents.relevant, ...Array.from({ length: documents.irrelevant }, () => 0)];
  const from = random.nextBelow(documents.relevant.length);
  const to = from + random.nextBelow(4);
  [grades[from], grades[to]] = [grades[to] as number, grades[from] as number];
  return ndcgAt(judged(grades, documents), 10);
}

/** ndcg@10 of a ranking that puts the irrelevant documents first. */
function badRankingNdcg(documents: Retrieval): number {
  const grades = [...Array.from({ length: documents.irrelevant }, () => 0), ...documents.relevant];
  return ndcgAt(judged(grades, documents), 10);
}

function judged(grades: readonly number[], documents: Retrieval): { grades: Int32Array; gradeCounts: number[] } {
  const counts = [documents.irrelevant, 0, 0];
  for (const grade of documents.relevant) counts[grade] = (counts[grade] ?? 0) + 1;
  return { grades: Int32Array.from(grades), gradeCounts: counts };
}

/**
 * Two runs of 30 cases and two engines. Engine "steady" ranks well in both
 * runs (a random near-ideal ranking per run: noise, no change). Engine
 * "broken" ranks well in A and puts its irrelevant documents first in B:
 * ndcg@10 drops from about 0.85 to about 0.4. Both engines also get a
 * correctness rating that does not change.
 */
export function brokenEngineRuns(): { a: RunFiles; b: RunFiles } {
  const random = seededRandom(2025);
  const casesOfA: CaseSpec[] = [];
  const casesOfB: CaseSpec[] = [];
  for (let index = 1; index <= 30; index++) {
    const requestId = `q${String(index).padStart(2, '0')}`;
    const steady = retrieval(random);
    const broken = retrieval(random);
    const rating: Value = index % 3 === 0 ? 'no' : 'yes';
    casesOfA.push({
      requestId,
      engines: {
        steady: { [NDCG]: goodRankingNdcg(steady, random), [CORRECTNESS]: rating },
        broken: { [NDCG]: goodRankingNdcg(broken, random), [CORRECTNESS]: rating },
      },
    });
    casesOfB.push({
      requestId,
      engines: {
        steady: { [NDCG]: goodRankingNdcg(steady, random), [CORRECTNESS]: rating },
        broken: { [NDCG]: badRankingNdcg(broken), [CORRECTNESS]: rating },
      },
    });
  }
  return { a: runFiles('run-a', casesOfA), b: runFiles('run-b', casesOfB) };
}
