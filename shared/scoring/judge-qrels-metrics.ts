import { groundTruthMetrics } from '../metrics/ground-truth-metrics.js';
import { GROUND_TRUTH_PREFIX, judgeTwinName } from '../metrics/judge-twin-names.js';
import type { EvalCase } from '../schema/eval-case.js';
import type { MetricValue } from '../schema/metric-value.js';

/**
 * A relevance judge's value of each ground-truth metric of a case: the same
 * metric, the same formula (trec_eval's), with the judge's grades as the
 * qrels. The qrels are the documents the judge graded for the case, pooled
 * over its engines (a document's first graded chunk, engines by name, as
 * judgments.qrels pools them), every other document unjudged. A graded judge
 * (graded_relevance, 0-3) stands for every ground-truth metric, its grades the
 * gains of NDCG and grade 1 or more relevant; a yes/no judge (chunk_relevance)
 * for the binary metrics only, "yes" relevant. Named
 * `retrieval/<source>/<judge>/qrels/<metric>`, they are what the report
 * corrects the human labels' means with (shared/report/corrected-estimates.ts).
 */

/** A relevance judge's ratings of a case's chunks: its source, and its id or variant id. */
const RELEVANCE_RATINGS = /^retrieval\/(llm_judged|lexical)\/((?:graded_relevance|chunk_relevance)(?:@[^/]+)?)\/ratings$/;
const BINARY_TWINS = /^(precision@\d+|recall@\d+|average_precision|reciprocal_rank)$/;
const GRADED_TWINS = /^(ndcg@\d+|precision@\d+|recall@\d+|average_precision|reciprocal_rank)$/;

interface JudgeQrels {
  readonly source: string;
  readonly grades: Map<string, number>;
  graded: boolean;
}

/** Per engine, the judges' values of its ground-truth metrics; `judged` holds each engine's judge metrics, ratings aligned with the top of its list. */
export function judgeQrelsMetrics(
  evalCase: EvalCase,
  judged: Readonly<Record<string, Readonly<Record<string, MetricValue>>>>,
  cutoffs: readonly number[],
): Record<string, Record<string, number>> {
  const byJudge = pooledQrels(evalCase, judged);
  const result: Record<string, Record<string, number>> = {};
  for (const [engine, output] of Object.entries(evalCase.engines)) {
    const metrics: Record<string, number> = {};
    for (const [judge, qrels] of byJudge) {
      const values = groundTruthMetrics(
        { ...evalCase, expected_retrieved_context: [...qrels.grades].map(([doc_uri, grade]) => ({ doc_uri, grade })) },
        output,
        cutoffs,
      );
      const twins = qrels.graded ? GRADED_TWINS : BINARY_TWINS;
      for (const [name, value] of Object.entries(values)) {
        const metric = name.slice(GROUND_TRUTH_PREFIX.length);
        if (twins.test(metric) && typeof value === 'number') metrics[judgeTwinName(qrels.source, judge, metric)] = value;
      }
    }
    result[engine] = metrics;
  }
  return result;
}

function pooledQrels(evalCase: EvalCase, judged: Readonly<Record<string, Readonly<Record<string, MetricValue>>>>): Map<string, JudgeQrels> {
  const byJudge = new Map<string, JudgeQrels>();
  for (const engine of Object.keys(judged).sort()) {
    const retrieved = evalCase.engines[engine]?.retrieved_context ?? [];
    for (const [name, ratings] of Object.entries(judged[engine] ?? {})) {
      const match = RELEVANCE_RATINGS.exec(name);
      if (match === null || !Array.isArray(ratings)) continue;
      const [, source = 'llm_judged', judge = ''] = match;
      const qrels = byJudge.get(judge) ?? { source, grades: new Map<string, number>(), graded: false };
      byJudge.set(judge, qrels);
      for (const [index, rating] of ratings.entries()) {
        const document = retrieved[index];
        const grade =
          typeof rating === 'number' && Number.isInteger(rating) ? rating : rating === 'yes' ? 1 : rating === 'no' ? 0 : undefined;
        if (document === undefined || grade === undefined || qrels.grades.has(document.doc_uri)) continue;
        if (typeof rating === 'number') qrels.graded = true;
        qrels.grades.set(document.doc_uri, grade);
      }
    }
  }
  return byJudge;
}
