import type { EngineJudgments } from './case-judgments.js';
import type { JudgmentOutcome } from '../judges/judgment-outcome.js';
import { chunkVerdictMetrics } from './chunk-metrics.js';
import { meanOf } from '../judges/ensemble/combine-verdicts.js';
import type { JudgeDefinition } from '../judges/judge-definition.js';
import type { MetricValue } from '../schema/metric-value.js';

/**
 * Metrics of a judge drawn `repeat` times on the same engine output, at a
 * temperature above 0, so that the report shows how steady the judge is:
 * - `<prefix>/sample_<i>/...`: each sample's own metrics (its rating; or its
 *   per-chunk ratings, precision, average precision, NDCG@k), so the report
 *   averages each sample over the cases: the spread of those averages is the
 *   run-level stability (the mAP of repeated evaluations differing by less
 *   than 1% is the figure the search-evaluation recipe asks for);
 * - the judge's usual case metric as the samples' mean: `<prefix>/rating`
 *   (a yes/no judge's is the share of "yes" samples, 0 to 1) or, for chunk
 *   judges, `/precision`, `/average_precision`, `/ndcg@k`, `/mean_rating`;
 * - `<prefix>/spread`: the largest minus the smallest sample value of that
 *   metric in the case (a whole judge's on the 0-1 value scale; a chunk
 *   judge's of its first derived metric: precision, or NDCG at the first cutoff).
 * When a sample failed the means and the spread are left out and
 * `/error_message` says how many samples failed.
 */
export function repeatedMetrics(
  prefix: string,
  judge: JudgeDefinition,
  samples: readonly EngineJudgments[],
  ndcgCutoffs: readonly number[],
): Record<string, MetricValue> {
  const metrics: Record<string, MetricValue> = {};
  const failures: string[] = [];
  const sampleMetrics = samples.map((sample, index) => {
    const name = `${prefix}/sample_${index + 1}`;
    if ('whole' in sample) {
      if (!sample.whole.ok) failures.push(sample.whole.error.message);
      metrics[`${name}/rating`] = sample.whole.ok ? sample.whole.value.rating : null;
      return wholeSampleMetrics(sample.whole);
    }
    const chunks = (sample as { chunks: JudgmentOutcome[] }).chunks;
    const own = chunkVerdictMetrics(name, judge.scale, chunks, ndcgCutoffs);
    delete own[`${name}/rationales`];
    delete own[`${name}/error_messages`];
    delete own[`${name}/error_message`];
    Object.assign(metrics, own);
    const failed = chunks.find((chunk): chunk is Extract<JudgmentOutcome, { ok: false }> => !chunk.ok);
    if (failed !== undefined) failures.push(failed.error.message);
    return Object.fromEntries(
      Object.entries(own).flatMap(([key, value]) => (typeof value === 'number' ? [[key.slice(name.length + 1), value]] : [])),
    );
  });
  const first = samples[0];
  if (first !== undefined && 'whole' in first) metrics[`${prefix}/rationale`] = first.whole.ok ? first.whole.value.rationale : null;
  if (failures.length > 0) {
    metrics[`${prefix}/error_message`] = `${failures.length} of ${samples.length} samples could not be judged: ${failures[0]}`;
    return metrics;
  }
  metrics[`${prefix}/error_message`] = null;
  const names = Object.keys(sampleMetrics[0] ?? {});
  for (const name of names) {
    if (name === 'value') continue;
    metrics[`${prefix}/${name}`] = meanOf(sampleMetrics.map((sample) => sample[name] as number));
  }
  const spreadOf = names.includes('value') ? 'value' : names[0];
  if (spreadOf !== undefined) {
    const values = sampleMetrics.map((sample) => sample[spreadOf] as number);
    metrics[`${prefix}/spread`] = Math.max(...values) - Math.min(...values);
  }
  return metrics;
}

/** A whole judgment as numbers: its rating as a number (yes 1, no 0), and its 0-1 value for the spread. */
function wholeSampleMetrics(outcome: JudgmentOutcome): Record<string, number> {
  if (!outcome.ok) return {};
  const rating = outcome.value.rating;
  return { rating: rating === 'yes' ? 1 : rating === 'no' ? 0 : rating, value: outcome.value.value };
}
