import type { EngineJudgments } from './case-judgments.js';
import type { JudgmentOutcome } from '../judges/judgment-outcome.js';
import { chunkVerdictMetrics } from './chunk-metrics.js';
import type { MetricValue } from '../schema/metric-value.js';
import { ratingValue } from '../judges/scale.js';
import { wholeVerdictMetrics } from './whole-verdict-metrics.js';
import { combineVerdicts, meanOf, type CombinedVerdict } from '../judges/ensemble/combine-verdicts.js';
import type { EnsembleJudge } from '../judges/ensemble/ensemble-judge.js';

/**
 * An ensemble's metrics for one engine, from its members' judgments of it
 * (each member's first sample): the metrics a single judge of the members'
 * kind would have, from the combined verdicts, plus how much the members
 * agreed. Yes/no: `/agreement`, the share of members behind the combined
 * verdict; graded and scored: `/spread`, the largest minus the smallest
 * member value (0-1). Chunk ensembles give them per chunk (`/agreements`,
 * `/spreads`) and their mean over the chunks as the case's `/agreement` or
 * `/spread`. An item any member could not judge gets no combined verdict,
 * only the members' errors. Returns the skip reason when a member skipped.
 */
export function ensembleMetrics(
  prefix: string,
  ensemble: EnsembleJudge,
  members: readonly EngineJudgments[],
  ndcgCutoffs: readonly number[],
): { metrics: Record<string, MetricValue> } | { skipped: string } {
  const skipped = members.findIndex((member) => 'skipped' in member);
  if (skipped !== -1)
    return { skipped: `member ${ensemble.members[skipped]} was skipped: ${(members[skipped] as { skipped: string }).skipped}` };
  const ratingToValue = (rating: number) => ratingValue(ensemble.scale, rating);
  const combine = (outcomes: readonly JudgmentOutcome[]): { outcome: JudgmentOutcome; combined?: CombinedVerdict } => {
    const failures = outcomes.flatMap((outcome, index) => (outcome.ok ? [] : [`${ensemble.members[index]}: ${outcome.error.message}`]));
    if (failures.length > 0) return { outcome: { ok: false, error: { message: failures.join('; '), transient: false } } };
    const verdicts = outcomes.map((outcome) => (outcome as Extract<JudgmentOutcome, { ok: true }>).value);
    const combined = combineVerdicts(ensemble.combine, ensemble.members, verdicts, ratingToValue);
    return { outcome: { ok: true, value: combined.verdict }, combined };
  };
  const spreadName = ensemble.combine === 'majority' ? 'agreement' : 'spread';
  const spreadOf = (combined: CombinedVerdict | undefined) =>
    combined === undefined ? null : (combined.agreement ?? combined.spread ?? null);
  if ('chunks' in (members[0] as EngineJudgments)) {
    const lists = members.map((member) => (member as { chunks: JudgmentOutcome[] }).chunks);
    const items = (lists[0] as JudgmentOutcome[]).map((_, index) => combine(lists.map((list) => list[index] as JudgmentOutcome)));
    const metrics = chunkVerdictMetrics(
      prefix,
      ensemble.scale,
      items.map((item) => item.outcome),
      ndcgCutoffs,
    );
    const spreads = items.map((item) => spreadOf(item.combined));
    metrics[`${prefix}/${spreadName}s`] = spreads;
    if (spreads.every((spread) => spread !== null)) metrics[`${prefix}/${spreadName}`] = meanOf(spreads as number[]);
    return { metrics };
  }
  const item = combine(members.map((member) => (member as { whole: JudgmentOutcome }).whole));
  const metrics = wholeVerdictMetrics(prefix, item.outcome);
  const spread = spreadOf(item.combined);
  if (spread !== null) metrics[`${prefix}/${spreadName}`] = spread;
  return { metrics };
}
