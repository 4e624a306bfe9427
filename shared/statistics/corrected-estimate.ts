import type { CorrectedEstimate, CorrectedUnit } from '../schema/report.js';
import { correctedMean, type NoInterval, type PairedSums, type Population } from './prediction-powered-mean.js';

/**
 * The one builder of a corrected estimate (shared/schema/report.ts,
 * correctedEstimateSchema) from its sums: an engine's metric and a pair of
 * engines in report.json, a difference against the baseline in `assay
 * compare`, a run's measure and a pair of runs in `assay agreement`. Only the
 * unit counted and the population differ between them.
 */
/** How sure, and from how many labelled: a run's `run.corrected_estimates`, or `assay agreement --confidence --min-labelled`. */
export interface CorrectionSettings {
  /** The confidence level of the intervals, e.g. 0.95. */
  readonly level: number;
  /** The fewest labelled cases (or topics) an interval is given for. */
  readonly minLabelled: number;
}

export interface CorrectedEstimateSettings extends CorrectionSettings {
  /**
   * `finite` for a mean over the cases themselves (an engine's, a run's);
   * `superpopulation` for a difference, read as a test of whether one is
   * better on the queries the cases stand for, which gets the p-value of no
   * difference.
   */
  readonly population: Population;
  /** What the sums count: a run's cases or a collection's topics. */
  readonly unit: CorrectedUnit;
  /**
   * Whether an estimate without an interval still gives the judge's mean.
   * `assay agreement` prints it beside the reason; report.json has always
   * left it out there (`{labelled, cases, population, reason}`), and its
   * bytes stay as they were.
   */
  readonly judgeMeanWithoutInterval: boolean;
}

export function correctedEstimate(sums: PairedSums, settings: CorrectedEstimateSettings): CorrectedEstimate {
  const { population, unit } = settings;
  // `cases` is the unit report.json has always counted without saying so; only another one is written.
  const counted = { ...(unit === 'cases' ? {} : { unit }), labelled: sums.labelled, cases: sums.all, population };
  const outcome = correctedMean(sums, settings);
  if (!outcome.ok) {
    const judgeMean = settings.judgeMeanWithoutInterval && sums.all > 0 ? { judge_only: sums.sumJudgeAll / sums.all } : {};
    return { ...counted, ...judgeMean, reason: describeNoInterval(outcome.error, unit) };
  }
  const { value } = outcome;
  const { humanOnly, corrected, sample } = value;
  return {
    ...counted,
    level: value.level,
    judge_only: value.judgeOnly,
    human_only: { mean: humanOnly.mean, low: humanOnly.low, high: humanOnly.high },
    corrected: { mean: corrected.mean, low: corrected.low, high: corrected.high, weight: corrected.weight },
    bias: value.bias,
    correlation: value.correlation,
    ...(population === 'superpopulation' ? { p_value: corrected.pValue } : {}),
    ...(sample === undefined
      ? {}
      : {
          sample_check: {
            labelled_judge_mean: sample.labelledJudgeMean,
            unlabelled_judge_mean: sample.unlabelledJudgeMean,
            p_value: sample.pValue,
          },
        }),
  };
}

/** Why there is no interval, as a sentence in the estimate's own unit. */
export function describeNoInterval(reason: NoInterval, unit: CorrectedUnit): string {
  switch (reason.kind) {
    case 'no_judge_values':
      return unit === 'topics' ? 'no topic is scored under the judge qrels' : "no case has the judge's value";
    case 'too_few_labelled':
      return `${reason.labelled} labelled of ${reason.all} ${unit}: fewer than the ${reason.needed} an interval needs`;
    case 'no_spread':
      return `the ${reason.labelled} labelled ${unit} all have the human value ${reason.humanValue}: no spread to estimate the other ${reason.all - reason.labelled} from`;
  }
}
