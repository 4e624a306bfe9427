import { countGrades } from '../metrics/judged-ranking.js';
import { ndcgAt } from '../metrics/ndcg-cut.js';
import { rankDiscount } from '../metrics/rank-discount.js';
import type { MetricValue } from '../schema/metric-value.js';
import type { Verdict } from '../judges/judge-definition.js';
import type { Scale } from '../judges/scale.js';
import type { Result } from '../schema/result.js';

/** A chunk's judgment, as far as its metrics go. */
type Outcome = Result<Verdict, { readonly message: string }>;

/**
 * Metrics of one engine's chunk verdicts, in rank order:
 * - `<prefix>/ratings`, `/rationales`, `/error_messages`: one entry per chunk
 *   (null where a chunk has none);
 * - yes/no scales: `/precision` = yes / chunks, and `/average_precision` = the
 *   mean of precision@i over the ranks i judged relevant (0 when none is),
 *   the AP of the Aliyun RAG evaluation recipe, computed on verdicts alone;
 * - graded scales: `/ndcg@k` with the judged grades as gains and the ideal
 *   ordering of those same grades;
 * - likert and score scales: `/mean_rating`, the chunks' mean rating.
 * When any chunk could not be judged the derived values are left out and
 * `/error_message` says how many chunks failed: a precision over the chunks
 * that happened to succeed would be a different, silently biased number.
 */
export function chunkVerdictMetrics(
  prefix: string,
  scale: Scale,
  outcomes: readonly Outcome[],
  ndcgCutoffs: readonly number[],
): Record<string, MetricValue> {
  const metrics: Record<string, MetricValue> = {
    [`${prefix}/ratings`]: outcomes.map((outcome) => (outcome.ok ? outcome.value.rating : null)),
    [`${prefix}/rationales`]: outcomes.map((outcome) => (outcome.ok ? outcome.value.rationale : null)),
    [`${prefix}/error_messages`]: outcomes.map((outcome) => (outcome.ok ? null : outcome.error.message)),
  };
  const failures = outcomes.filter((outcome): outcome is Extract<Outcome, { ok: false }> => !outcome.ok);
  if (failures.length > 0) {
    metrics[`${prefix}/error_message`] =
      `${failures.length} of ${outcomes.length} chunks could not be judged: ${failures[0]?.error.message}`;
    return metrics;
  }
  metrics[`${prefix}/error_message`] = null;
  const verdicts = outcomes.map((outcome) => (outcome as Extract<Outcome, { ok: true }>).value);
  if (scale.type === 'yes_no') {
    const relevant = verdicts.map((verdict) => verdict.rating === 'yes');
    metrics[`${prefix}/precision`] = relevant.filter(Boolean).length / relevant.length;
    metrics[`${prefix}/average_precision`] = averagePrecisionOfVerdicts(relevant);
  } else if (scale.type === 'grade') {
    const grades = verdicts.map((verdict) => (verdict.rating as number) - scale.min);
    for (const k of ndcgCutoffs) metrics[`${prefix}/ndcg@${k}`] = ndcgOfJudgedGrades(grades, k);
  } else {
    // Likert and score ratings (custom retrieval judges) say nothing of relevance, so no ranking metric: their mean.
    metrics[`${prefix}/mean_rating`] = verdicts.reduce((sum, verdict) => sum + (verdict.rating as number), 0) / verdicts.length;
  }
  return metrics;
}

/** Mean of precision@i over the relevant ranks i; 0 when no chunk is relevant. */
export function averagePrecisionOfVerdicts(relevant: readonly boolean[]): number {
  let found = 0;
  let sum = 0;
  relevant.forEach((isRelevant, index) => {
    if (!isRelevant) return;
    found++;
    sum += found / (index + 1);
  });
  return found === 0 ? 0 : sum / found;
}

/**
 * NDCG@k of judged grades in rank order, the ideal being the same grades
 * sorted. Combined grades (an ensemble's mean) may fall between whole
 * grades: their ideal ordering is then computed by sorting, with the same
 * linear gain and log2(rank + 1) discount.
 */
export function ndcgOfJudgedGrades(grades: readonly number[], k: number): number {
  if (grades.every(Number.isInteger)) return ndcgAt({ grades, gradeCounts: countGrades(grades) }, k);
  const dcgOf = (ordered: readonly number[]) =>
    ordered.slice(0, k).reduce((sum, grade, index) => (grade > 0 ? sum + grade / rankDiscount(index + 1) : sum), 0);
  const ideal = dcgOf([...grades].sort((left, right) => right - left));
  return ideal > 0 ? dcgOf(grades) / ideal : 0;
}
