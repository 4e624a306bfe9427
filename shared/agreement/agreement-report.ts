import type { Measure, MeasureOptions } from '../metrics/registry.js';
import type { AgreementReport } from '../schema/agreement.js';
import type { IntervalResult, ResampledInterval } from '../statistics/bootstrap-interval.js';
import type { CorrectionSettings } from '../statistics/corrected-estimate.js';
import type { Statistic } from '../statistics/statistic.js';
import { DEFAULT_MIN_LABELLED } from '../statistics/prediction-powered-mean.js';
import type { Qrels } from '../trec/qrels.js';
import { labelAgreement } from './label-agreement.js';
import { pairLabels } from './label-pairs.js';
import { systemAgreement, type NamedRun } from './system-agreement.js';
import { correctedSystems } from './corrected-systems.js';
import { DEFAULT_LEADERBOARD_ADJUSTMENT, type PValueAdjustmentMethod } from '../schema/p-value-adjustment.js';
import type { Result } from '../schema/result.js';

export interface AgreementInputs {
  readonly human: Qrels;
  readonly judge: Qrels;
  /** Runs to rank under both qrels; none leaves `systems` out. Names must be distinct. */
  readonly runs: readonly NamedRun[];
  /** The measure that ranks the runs (tau and rho), and the first of those corrected. */
  readonly measure: Measure;
  /** Every measure whose per-run means are corrected by the judge (the ranking measure first). */
  readonly measures?: readonly Measure[];
  /** The corrected estimates' confidence level and fewest labelled topics. */
  readonly correction?: CorrectionSettings;
  /** The judge's name, for its leaderboards; "judge" when not given. */
  readonly judgeName?: string;
  /** How the p-values of a leaderboard's pairs of runs are adjusted; Benjamini-Hochberg when not given. */
  readonly leaderboardAdjustment?: PValueAdjustmentMethod;
  /** trec_eval's -l: lowest grade that counts as relevant, for the binary statistics and the measure. */
  readonly measureOptions: MeasureOptions;
  readonly resamples: number;
  readonly seed: number;
}

const INTERVAL_LEVEL = 0.95;
/** The corrected estimates' defaults, as a run's run.corrected_estimates. */
const DEFAULT_CORRECTION: CorrectionSettings = { level: 0.95, minLabelled: DEFAULT_MIN_LABELLED };

/** Compares two qrels files label by label and, given runs, by the system rankings they produce. */
export function buildAgreementReport(inputs: AgreementInputs): Result<AgreementReport> {
  const repeated = inputs.runs.find((one, index) => inputs.runs.findIndex((other) => other.name === one.name) !== index);
  if (repeated !== undefined) return { ok: false, error: `Two runs are named ${repeated.name}: give each run file once` };
  const bootstrap = { resamples: inputs.resamples, seed: inputs.seed, level: INTERVAL_LEVEL };
  const pairs = pairLabels(inputs.human, inputs.judge);
  const labels = labelAgreement(pairs, inputs.measureOptions.relevanceLevel, bootstrap);
  const systems =
    inputs.runs.length === 0
      ? undefined
      : systemAgreement(inputs.runs, { human: inputs.human, judge: inputs.judge }, inputs.measure, inputs.measureOptions, bootstrap);
  if (systems !== undefined && !systems.ok) return { ok: false, error: systems.error };
  const corrected =
    inputs.runs.length === 0
      ? undefined
      : correctedSystems(
          inputs.runs,
          { human: inputs.human, judge: inputs.judge },
          inputs.measures ?? [inputs.measure],
          inputs.measureOptions,
          inputs.correction ?? DEFAULT_CORRECTION,
          { judge: inputs.judgeName ?? 'judge', method: inputs.leaderboardAdjustment ?? DEFAULT_LEADERBOARD_ADJUSTMENT },
        );
  if (corrected !== undefined && !corrected.ok) return { ok: false, error: corrected.error };

  const reasons: Record<string, string> = {};
  const value = (path: string, statistic: Statistic): number | null => {
    if (statistic.ok) return statistic.value;
    reasons[path] = statistic.error;
    return null;
  };
  const interval = (path: string, result: IntervalResult, estimate: Statistic): ResampledInterval | null => {
    // An interval around a statistic that is undefined on the data itself would describe nothing.
    if (!estimate.ok) {
      reasons[path] = estimate.error;
      return null;
    }
    if (result.ok) return result.value;
    reasons[path] = result.error;
    return null;
  };
  const confusion: Record<string, Record<string, number>> = {};
  for (const [row, humanGrade] of pairs.categories.entries()) {
    confusion[String(humanGrade)] = Object.fromEntries(
      pairs.categories.map((judgeGrade, column) => [String(judgeGrade), labels.confusion[row]?.[column] ?? 0]),
    );
  }
  const report: AgreementReport = {
    pairs: labels.pairs,
    human_only: pairs.humanOnly,
    judge_only: pairs.judgeOnly,
    categories: [...pairs.categories],
    exact_agreement: value('exact_agreement', labels.exactAgreement),
    cohen_kappa: value('cohen_kappa', labels.cohenKappa),
    weighted_kappa: value('weighted_kappa', labels.weightedKappa),
    binary: {
      level: labels.binary.level,
      kappa: value('binary.kappa', labels.binary.kappa),
      agreement: value('binary.agreement', labels.binary.agreement),
      precision: value('binary.precision', labels.binary.precision),
      recall: value('binary.recall', labels.binary.recall),
    },
    confusion,
    ...(systems === undefined
      ? {}
      : {
          systems: {
            measure: systems.value.measure,
            n: inputs.runs.length,
            kendall_tau: value('systems.kendall_tau', systems.value.kendallTau),
            spearman_rho: value('systems.spearman_rho', systems.value.spearmanRho),
            human: Object.fromEntries(inputs.runs.map((run, index) => [run.name, systems.value.human[index] as number])),
            judge: Object.fromEntries(inputs.runs.map((run, index) => [run.name, systems.value.judge[index] as number])),
          },
        }),
    intervals: {
      level: INTERVAL_LEVEL,
      resamples: inputs.resamples,
      seed: inputs.seed,
      cohen_kappa: interval('intervals.cohen_kappa', labels.intervals.cohenKappa, labels.cohenKappa),
      weighted_kappa: interval('intervals.weighted_kappa', labels.intervals.weightedKappa, labels.weightedKappa),
      binary_kappa: interval('intervals.binary_kappa', labels.intervals.binaryKappa, labels.binary.kappa),
      ...(systems === undefined
        ? {}
        : { kendall_tau: interval('intervals.kendall_tau', systems.value.kendallTauInterval, systems.value.kendallTau) }),
    },
    ...(corrected === undefined
      ? {}
      : {
          estimates: corrected.value.estimates,
          ...(inputs.runs.length < 2 ? {} : { differences: corrected.value.differences }),
          ...(corrected.value.leaderboards.length === 0 ? {} : { leaderboards: corrected.value.leaderboards }),
        }),
    reasons,
  };
  return { ok: true, value: report };
}
