import type { RankedJudge } from '../schema/report.js';

/**
 * Choosing a judge: the candidates ranked by the certainty their labels buy.
 * A judge is worth what it narrows the corrected interval
 * (shared/statistics/prediction-powered-mean.ts) below the human labels'
 * alone, on this dataset, with these labelled cases: that is the whole use of
 * its labels once the human ones correct its bias. Agreement (kappa) and bias
 * sit beside it; neither decides, since a biased judge that follows the
 * humans' ups and downs narrows the interval as well as an unbiased one.
 *
 * Per candidate, over its estimates that have an interval (one per run or
 * engine, of one measure):
 *
 *   width              = mean of the corrected intervals' widths
 *   human_width        = mean of the human-only intervals' widths (the same for every judge)
 *   equivalent_labels  = mean of n' = 1 / ((1/n − 1/N) · (w_c / w_h)² + 1/N)
 *
 * n' is the number of labelled cases the human labels alone would need for
 * the corrected width: the human-only variance is (1/n' − 1/N) s²_y, the
 * corrected one (1/n − 1/N) s²_d, and (w_c / w_h)² estimates s²_d / s²_y (a
 * little high, its t quantile having one degree of freedom fewer).
 * labels_gained = n' − n is what the judge's labels are worth in human
 * labels; labels_per_cost = labels_gained / cost, the certainty a unit of
 * money buys, when the judge's cost is known and above 0.
 */
export interface JudgeCandidate {
  readonly name: string;
  /** The candidate's corrected estimates of one measure: one per run or engine. */
  readonly estimates: readonly CandidateEstimate[];
  /** Cohen's kappa of its labels against the human ones, when known. */
  readonly kappa: number | null;
  /** What its labels cost, in the currency of `currency`; null when unknown. */
  readonly cost: number | null;
}

export interface CandidateEstimate {
  /** Labelled cases (or topics). */
  readonly labelled: number;
  /** All the cases (or topics) the estimate is over. */
  readonly all: number;
  readonly humanOnly?: { readonly low: number; readonly high: number };
  readonly corrected?: { readonly low: number; readonly high: number };
  readonly bias?: number;
}

/** The candidates, narrowest corrected interval first (those without one last), ties by name. */
export function rankJudges(candidates: readonly JudgeCandidate[]): RankedJudge[] {
  return candidates.map(rankedJudge).sort((left, right) => byWidth(left, right) || byName(left, right));
}

/** The same candidates by certainty per unit of cost: most labels gained per unit first, those without a known cost last. */
export function rankByCost(ranked: readonly RankedJudge[]): RankedJudge[] {
  return [...ranked].sort(
    (left, right) => descending(left.labels_per_cost, right.labels_per_cost) || byWidth(left, right) || byName(left, right),
  );
}

function rankedJudge(candidate: JudgeCandidate): RankedJudge {
  const usable = candidate.estimates.flatMap((estimate) =>
    estimate.corrected === undefined || estimate.humanOnly === undefined
      ? []
      : [{ ...estimate, corrected: estimate.corrected, humanOnly: estimate.humanOnly }],
  );
  const none = {
    name: candidate.name,
    estimates: 0,
    width: null,
    human_width: null,
    width_ratio: null,
    labelled: null,
    equivalent_labels: null,
    labels_gained: null,
    bias: null,
    kappa: candidate.kappa,
    cost: candidate.cost,
    labels_per_cost: null,
  };
  if (usable.length === 0) return none;
  const width = meanOf(usable.map((estimate) => estimate.corrected.high - estimate.corrected.low));
  const humanWidth = meanOf(usable.map((estimate) => estimate.humanOnly.high - estimate.humanOnly.low));
  const labelled = meanOf(usable.map((estimate) => estimate.labelled));
  const equivalent = meanOf(usable.map(equivalentLabels));
  const biases = usable.flatMap((estimate) => (estimate.bias === undefined ? [] : [estimate.bias]));
  const gained = equivalent - labelled;
  return {
    ...none,
    estimates: usable.length,
    width,
    human_width: humanWidth,
    width_ratio: humanWidth > 0 ? width / humanWidth : null,
    labelled,
    equivalent_labels: equivalent,
    labels_gained: gained,
    bias: biases.length === 0 ? null : meanOf(biases),
    labels_per_cost: candidate.cost !== null && candidate.cost > 0 ? gained / candidate.cost : null,
  };
}

/** n' = 1 / ((1/n − 1/N) · ρ² + 1/N), ρ = w_c / w_h; n itself when every case is labelled or the human width is 0. */
function equivalentLabels(estimate: {
  labelled: number;
  all: number;
  corrected: { low: number; high: number };
  humanOnly: { low: number; high: number };
}): number {
  const humanWidth = estimate.humanOnly.high - estimate.humanOnly.low;
  if (estimate.labelled >= estimate.all || humanWidth <= 0) return estimate.labelled;
  const ratio = (estimate.corrected.high - estimate.corrected.low) / humanWidth;
  const denominator = (1 / estimate.labelled - 1 / estimate.all) * ratio * ratio + 1 / estimate.all;
  return Math.min(estimate.all, 1 / denominator);
}

function byWidth(left: RankedJudge, right: RankedJudge): number {
  if (left.width === null || right.width === null) return Number(left.width === null) - Number(right.width === null);
  return left.width - right.width;
}

function descending(left: number | null, right: number | null): number {
  if (left === null || right === null) return Number(left === null) - Number(right === null);
  return right - left;
}

/** By name in UTF-16 code units, the order of every report file, whatever the locale. */
function byName(left: RankedJudge, right: RankedJudge): number {
  if (left.name < right.name) return -1;
  return left.name > right.name ? 1 : 0;
}

function meanOf(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}
