import type { Result } from '../schema/result.js';
import { studentTQuantile } from './student-t-quantile.js';
import { studentTTwoSidedPValue } from './student-t.js';

/**
 * The mean of a metric over a run's N cases, estimated from the judge's value
 * on every case and the human value on n of them: prediction-powered
 * inference (Angelopoulos, Bates, Fannjiang, Jordan, Zrnic, Science 2023) in
 * its power-tuned form PPI++ (Angelopoulos, Duchi, Zrnic 2023,
 * arXiv:2311.01453), for a finite population.
 *
 * With ŷ the judge's value and y the human one, the labelled cases a simple
 * random sample of the N:
 *
 *   λ   = clip(cov_n(y, ŷ) / var_n(ŷ), 0, 1)          (the power-tuning weight)
 *   θ̂   = λ · mean_N(ŷ) + mean_n(y − λŷ)               (the corrected estimate)
 *   d_i = y_i − λ ŷ_i,   s²_d = Σ_n (d_i − mean_n(d))² / (n − k)
 *   SE  = √((1 − n/N) · s²_d / n)                        (finite population: the estimand is the mean over the run's own N cases)
 *   θ̂ ± t_{(1+level)/2, n−k} · SE
 *
 * with k = 2 when λ was fitted (above 0: the mean and λ both come from the
 * labelled cases, one degree of freedom more than the mean alone) and k = 1
 * when it is 0, where the estimate is the human-only one. mean_N(ŷ) is known
 * over every case, so the randomness is the sample's alone, and λ minimizes
 * the sample variance of d: the correction gains where the judge's values
 * follow the human ones, and costs at most the degree of freedom where they
 * do not. The human-only interval beside it is the same with λ = 0.
 * Clipping λ to [0, 1] keeps a judge that is anticorrelated or overscaled from
 * being extrapolated.
 *
 * Everything comes from sums (PairedSums), so partial sums of ranges of cases
 * merge. Values near [0, 1], as IR metrics and verdict rates are, keep the
 * sums exact enough for runs of millions of cases.
 */
/** The fewest labelled cases an interval is given for unless configured: run.corrected_estimates.min_labelled's default. */
export const DEFAULT_MIN_LABELLED = 8;

export interface PairedSums {
  /** Cases with the judge's value. */
  all: number;
  sumJudgeAll: number;
  sumJudgeAllSquares: number;
  /** Of those, cases with the human value too. */
  labelled: number;
  sumHuman: number;
  sumJudge: number;
  sumHumanSquares: number;
  sumJudgeSquares: number;
  sumProducts: number;
}

export function emptyPairedSums(): PairedSums {
  return {
    all: 0,
    sumJudgeAll: 0,
    sumJudgeAllSquares: 0,
    labelled: 0,
    sumHuman: 0,
    sumJudge: 0,
    sumHumanSquares: 0,
    sumJudgeSquares: 0,
    sumProducts: 0,
  };
}

/** Adds one case: its judge value, and its human value when it is labelled. */
export function addCase(sums: PairedSums, judge: number, human: number | undefined): void {
  sums.all += 1;
  sums.sumJudgeAll += judge;
  sums.sumJudgeAllSquares += judge * judge;
  if (human === undefined) return;
  sums.labelled += 1;
  sums.sumHuman += human;
  sums.sumJudge += judge;
  sums.sumHumanSquares += human * human;
  sums.sumJudgeSquares += judge * judge;
  sums.sumProducts += human * judge;
}

export function mergePairedSums(left: PairedSums, right: PairedSums): PairedSums {
  return {
    all: left.all + right.all,
    sumJudgeAll: left.sumJudgeAll + right.sumJudgeAll,
    sumJudgeAllSquares: left.sumJudgeAllSquares + right.sumJudgeAllSquares,
    labelled: left.labelled + right.labelled,
    sumHuman: left.sumHuman + right.sumHuman,
    sumJudge: left.sumJudge + right.sumJudge,
    sumHumanSquares: left.sumHumanSquares + right.sumHumanSquares,
    sumJudgeSquares: left.sumJudgeSquares + right.sumJudgeSquares,
    sumProducts: left.sumProducts + right.sumProducts,
  };
}

export interface MeanInterval {
  readonly mean: number;
  readonly low: number;
  readonly high: number;
}

/** An interval with the two-sided p-value of a mean of 0 under the same t distribution: what a difference is tested by. */
export interface CorrectedInterval extends MeanInterval {
  readonly pValue: number;
}

export interface CorrectedMean {
  readonly labelled: number;
  readonly all: number;
  readonly level: number;
  /** The judge's mean over every case, as a judge-only report gives it. */
  readonly judgeOnly: number;
  readonly humanOnly: CorrectedInterval;
  readonly corrected: CorrectedInterval & { readonly weight: number };
  /** mean_n(ŷ − y): how far the judge's values lie above the human ones on the labelled cases. */
  readonly bias: number;
  /** Pearson's r of y and ŷ on the labelled cases; null when either does not vary. */
  readonly correlation: number | null;
  /** Whether the labelled cases look like the rest to the judge; absent with fewer than 2 of either. */
  readonly sample?: SampleCheck;
}

/**
 * The one check of the sample assay can make: the judge's values of the
 * labelled cases against those of the rest, by Welch's t-test (two-sided).
 * Labelled cases chosen at random look, to the judge, like the rest; easy
 * cases, one engine's or the first in the file would not. A low p-value says
 * the labelled cases are not a random sample; a high one cannot say they
 * are (cases chosen on something the judge does not see pass it).
 */
export interface SampleCheck {
  readonly labelledJudgeMean: number;
  readonly unlabelledJudgeMean: number;
  readonly pValue: number;
}

/**
 * Why there is no corrected mean, as a value: the reports count cases and
 * `assay agreement` topics, so each words it in its own unit
 * (describeNoInterval in corrected-estimate.ts).
 */
export type NoInterval =
  /** Nothing has the judge's value. */
  | { readonly kind: 'no_judge_values' }
  /** Fewer labelled than `needed`, the larger of 3 and the configured least. */
  | { readonly kind: 'too_few_labelled'; readonly labelled: number; readonly all: number; readonly needed: number }
  /** Every labelled one has the same human value, and some are not labelled. */
  | { readonly kind: 'no_spread'; readonly labelled: number; readonly all: number; readonly humanValue: number };

/** The corrected mean, or why there is none (`error`). */
export type CorrectedMeanOutcome = Result<CorrectedMean, NoInterval>;

/**
 * Which mean the interval is for. `finite`: the mean over the run's own N
 * cases, the only randomness the choice of the labelled ones (the variances
 * above). `superpopulation`: the mean over every query the run's cases stand
 * for, the N cases themselves a random sample of them, as a significance
 * test of a difference reads it: each variance gains s²_y / N, the
 * two-phase sampling variance (Cochran, Sampling Techniques, 3rd ed., §12.2),
 * so that with every case labelled the interval is the paired t interval and
 * not a point.
 */
export type Population = 'finite' | 'superpopulation';

export interface CorrectedMeanOptions {
  readonly level: number;
  readonly minLabelled: number;
  /** Default `finite`. */
  readonly population?: Population;
}

export function correctedMean(sums: PairedSums, options: CorrectedMeanOptions): CorrectedMeanOutcome {
  const n = sums.labelled;
  const total = sums.all;
  if (total === 0) return { ok: false, error: { kind: 'no_judge_values' } };
  const needed = Math.max(3, options.minLabelled);
  if (n < needed) return { ok: false, error: { kind: 'too_few_labelled', labelled: n, all: total, needed } };
  const meanHuman = sums.sumHuman / n;
  const meanJudge = sums.sumJudge / n;
  // Sample (co)variances, divided by n − 1.
  const varianceHuman = Math.max(0, (sums.sumHumanSquares - n * meanHuman * meanHuman) / (n - 1));
  const varianceJudge = Math.max(0, (sums.sumJudgeSquares - n * meanJudge * meanJudge) / (n - 1));
  const covariance = (sums.sumProducts - n * meanHuman * meanJudge) / (n - 1);
  const weight = varianceJudge > 0 ? Math.min(1, Math.max(0, covariance / varianceJudge)) : 0;
  const judgeOnly = sums.sumJudgeAll / total;
  const finite = Math.max(0, 1 - n / total);
  // A spread of zero among the labelled cases would make the interval a point, a certainty about the cases no one labelled.
  if (varianceHuman === 0 && n < total) return { ok: false, error: { kind: 'no_spread', labelled: n, all: total, humanValue: meanHuman } };
  // The superpopulation's extra variance, s²_y / N, written as a term per labelled case so that interval() divides by n alone.
  const extra = options.population === 'superpopulation' ? (varianceHuman * n) / total : 0;
  const humanOnly = interval(meanHuman, varianceHuman, n, 1, finite, options.level, extra);
  // s²_d from the sums: var(y − λŷ) = var(y) − 2λ cov(y, ŷ) + λ² var(ŷ), re-divided by n − k.
  // With every case labelled the weight plays no part (the estimate is the human mean), so it costs no degree of freedom.
  const fitted = weight > 0 && n < total ? 2 : 1;
  const residual = Math.max(0, varianceHuman - 2 * weight * covariance + weight * weight * varianceJudge) * ((n - 1) / (n - fitted));
  // With every case labelled the human mean is the estimand itself (and the formula's sums would differ from it in the last bit).
  const correctedMean = n === total ? meanHuman : weight * judgeOnly + meanHuman - weight * meanJudge;
  const corrected = { ...interval(correctedMean, residual, n, fitted, finite, options.level, extra), weight };
  const spread = Math.sqrt(varianceHuman * varianceJudge);
  const sample = sampleCheck(sums, meanJudge, varianceJudge);
  return {
    ok: true,
    value: {
      labelled: n,
      all: total,
      level: options.level,
      judgeOnly,
      humanOnly,
      corrected,
      bias: meanJudge - meanHuman,
      correlation: spread > 0 ? covariance / spread : null,
      ...(sample === undefined ? {} : { sample }),
    },
  };
}

/** Welch's t-test of the judge's values, labelled cases against the rest (SampleCheck). */
function sampleCheck(sums: PairedSums, meanLabelled: number, varianceLabelled: number): SampleCheck | undefined {
  const n = sums.labelled;
  const rest = sums.all - n;
  if (n < 2 || rest < 2) return undefined;
  const meanRest = (sums.sumJudgeAll - sums.sumJudge) / rest;
  const varianceRest = Math.max(0, (sums.sumJudgeAllSquares - sums.sumJudgeSquares - rest * meanRest * meanRest) / (rest - 1));
  const [first, second] = [varianceLabelled / n, varianceRest / rest];
  const standardError = Math.sqrt(first + second);
  const difference = meanLabelled - meanRest;
  // Welch-Satterthwaite degrees of freedom.
  const pValue =
    standardError === 0
      ? difference === 0
        ? 1
        : 0
      : studentTTwoSidedPValue(difference / standardError, (first + second) ** 2 / (first ** 2 / (n - 1) + second ** 2 / (rest - 1)));
  return { labelledJudgeMean: meanLabelled, unlabelledJudgeMean: meanRest, pValue };
}

function interval(
  mean: number,
  variance: number,
  n: number,
  fitted: number,
  finite: number,
  level: number,
  extra: number,
): CorrectedInterval {
  const standardError = Math.sqrt((finite * variance + extra) / n);
  const degreesOfFreedom = n - fitted;
  const half = studentTQuantile(level, degreesOfFreedom) * standardError;
  return { mean, low: mean - half, high: mean + half, pValue: tTestPValue(mean, standardError, degreesOfFreedom) };
}

/** Two-sided p-value of mean = 0 from the interval's own t statistic; with no spread at all, 1 for a mean of 0 and 0 for any other. */
function tTestPValue(mean: number, standardError: number, degreesOfFreedom: number): number {
  if (standardError === 0) return mean === 0 ? 1 : 0;
  return studentTTwoSidedPValue(mean / standardError, degreesOfFreedom);
}
