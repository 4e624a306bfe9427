import type { CorrectedEstimate, Report } from '../schema/report.js';

/**
 * The columns of the corrected tables. The judge's value is named for what it
 * is, the metric computed on the judge's labels, since the metrics table
 * holds another number of the same judge under a name that reads alike
 * (correctedNote says how they differ).
 */
export const CORRECTED_COLUMNS = [
  'engine',
  'metric',
  'judge',
  "judge's labels",
  'human labels (n)',
  'corrected',
  'weight',
  'note',
] as const;

export interface CorrectedRow {
  readonly engine: string;
  readonly metric: string;
  readonly judge: string;
  /** The cells after engine, metric and judge, in CORRECTED_COLUMNS order. */
  readonly cells: readonly string[];
  /** The judge's own mean lies outside the corrected interval. */
  readonly flagged: boolean;
}

/**
 * How a corrected metric reads in a table: a ground-truth metric without its
 * prefix (`ndcg@10`), a human verdict as `human/<judge>` (`human/correctness`:
 * the judge's verdict rate, or mean grade, against the human one).
 */
export function correctedMetricLabel(metric: string): string {
  const verdict = /^[a-z]+\/human\/([^/]+)\/rating$/.exec(metric);
  if (verdict !== null) return `human/${verdict[1] ?? ''}`;
  return metric.replace(/^retrieval\/ground_truth\//, '');
}

/** The rows of the corrected-estimates table of report.md and report.html: one per engine, human metric and judge. */
export function correctedRows(report: Report): CorrectedRow[] {
  return Object.entries(report.corrected ?? {}).flatMap(([engine, metrics]) =>
    Object.entries(metrics).flatMap(([metric, judges]) =>
      Object.entries(judges).map(([judge, estimate]) => ({ engine, metric: correctedMetricLabel(metric), judge, ...cellsOf(estimate) })),
    ),
  );
}

/** The rows of the engine-pair table: each pair's per-case difference, a minus b, corrected by each judge. */
export function correctedDifferenceRows(report: Report): CorrectedRow[] {
  return (report.corrected_differences ?? []).map((difference) => ({
    engine: `${difference.engines[0]} − ${difference.engines[1]}`,
    metric: correctedMetricLabel(difference.metric),
    judge: difference.judge,
    ...cellsOf(difference, 'difference'),
  }));
}

/** The rows of the baseline table: each engine's human metric, this run minus the baseline, corrected by each judge. */
export function correctedBaselineRows(report: Report): CorrectedRow[] {
  return Object.entries(report.comparison?.engines ?? {}).flatMap(([engine, metrics]) =>
    Object.entries(metrics).flatMap(([metric, compared]) =>
      Object.entries(compared.corrected ?? {}).map(([judge, estimate]) => ({
        engine,
        metric: correctedMetricLabel(metric),
        judge,
        ...cellsOf(estimate, 'difference'),
      })),
    ),
  );
}

/** Below this p-value the labelled cases are said not to look like a random sample of the run's. */
export const SAMPLE_CHECK_LEVEL = 0.01;

function cellsOf(estimate: CorrectedEstimate, subject: 'engine' | 'difference' = 'engine'): { cells: string[]; flagged: boolean } {
  const { judge_only: judgeOnly, human_only: humanOnly, corrected } = estimate;
  if (judgeOnly === undefined || humanOnly === undefined || corrected === undefined) {
    return { cells: ['–', `– (${estimate.labelled})`, '–', '–', estimate.reason ?? ''], flagged: false };
  }
  const outside = below(judgeOnly, corrected.low) || below(corrected.high, judgeOnly);
  const gap = judgeOnly - corrected.mean;
  const what = subject === 'engine' ? 'rates this engine' : 'puts this difference';
  const notes = outside
    ? [`the judge ${what} ${Math.abs(gap).toFixed(2)} ${gap > 0 ? 'higher' : 'lower'} than the labelled cases support`]
    : [];
  const sample = estimate.sample_check;
  const unlike = sample !== undefined && sample.p_value < SAMPLE_CHECK_LEVEL;
  if (unlike) {
    const apart = sample.labelled_judge_mean - sample.unlabelled_judge_mean;
    notes.push(
      `the labelled cases do not look like a random sample: the judge rates them ${Math.abs(apart).toFixed(2)} ${apart > 0 ? 'higher' : 'lower'} than the rest (p ${sample.p_value < 0.0001 ? '< 0.0001' : sample.p_value.toFixed(4)}), and the interval assumes one`,
    );
  }
  return {
    cells: [
      fixed(judgeOnly),
      `${interval(humanOnly)} (${estimate.labelled})`,
      interval(corrected),
      corrected.weight.toFixed(2),
      notes.join('; '),
    ],
    flagged: outside || unlike,
  };
}

/**
 * Differences this small are rounding, not a judge's bias: 10⁻¹² of the
 * values' scale, the larger of 1 and their magnitude.
 *
 * The judge's mean and the corrected one are sums over the same cases taken
 * in different ways (the judge's values over every case; λ times them plus
 * the human values' residuals over the labelled ones), so a judge that agrees
 * with the labels exactly can land a few units in the last place away from
 * the corrected mean, and with every case labelled the interval is that one
 * point: the last bit would decide the flag, and the page would say the judge
 * rates the engine "0.00 lower". The scale is at least 1 because the rounding
 * of a sum follows the size of its terms, the per-case values (metrics and
 * verdict rates in [0, 1], grades up to 3 or 5), even where their mean, a
 * difference between engines, is near 0. A sum of n such terms is off by at
 * most about n · 1.1 × 10⁻¹⁶ of their size, and in practice by far less (about
 * √n times that), so 10⁻¹² holds ties of runs of thousands of cases in the
 * worst case and of many millions in practice, far below the two decimals
 * the flag's note shows.
 */
const TIE_TOLERANCE = 1e-12;

/** `value` lies below `bound` by more than rounding (TIE_TOLERANCE). */
function below(value: number, bound: number): boolean {
  return bound - value > TIE_TOLERANCE * Math.max(1, Math.abs(value), Math.abs(bound));
}

function interval(value: { mean: number; low: number; high: number }): string {
  return `${fixed(value.mean)} [${fixed(value.low)}, ${fixed(value.high)}]`;
}

function fixed(value: number): string {
  return value.toFixed(4);
}

/** The sentences under the table: what each column is, how the judge's labels differ from the metrics table's judge metrics, and what the estimate assumes. */
export function correctedNote(report: Report): string {
  const levels = new Set(
    Object.values(report.corrected ?? {}).flatMap((metrics) =>
      Object.values(metrics).flatMap((judges) =>
        Object.values(judges).flatMap((estimate) => (estimate.level === undefined ? [] : [estimate.level])),
      ),
    ),
  );
  const level = levels.size === 1 ? `${Math.round(([...levels][0] as number) * 100)}%` : 'the configured';
  const groundTruth = Object.values(report.corrected ?? {}).some((metrics) =>
    Object.keys(metrics).some((metric) => metric.startsWith(GROUND_TRUTH)),
  );
  return [
    `Each ground-truth metric's mean over the run's cases, three ways, with ${level} intervals for the mean over this run's cases. ` +
      "judge's labels: the metric with the judge's grades in place of the human labels, on every case (the judge's grades of a case's documents, pooled over its engines, are the qrels of the metric's own formula: report.json's retrieval/<source>/<judge>/qrels/<metric>/average); " +
      'human labels: the metric on the labelled cases; corrected: the two combined (prediction-powered, PPI++). ' +
      "Likewise each answer judge's verdict rate or mean grade (human/<judge>: its ratings on every case, yes = 1 and no = 0, against the human verdicts where the dataset gives them).",
    ...(groundTruth
      ? [
          "The judge's labels are not the metrics table's retrieval/<source>/chunk_relevance/average_precision and retrieval/<source>/graded_relevance/ndcg@k: " +
            "those read only the verdicts on each engine's own chunks, so a relevant document that only another engine retrieved does not count against an engine there, as it does here.",
        ]
      : []),
    "The correction holds when the labelled cases are a random sample of the run's; the weight is how much it leans on the judge (0: human labels alone). " +
      "A difference (between engines, or against the baseline) is the mean per-case difference, its interval for the queries the cases stand for, as a significance test reads it; against the baseline, at the comparison's level, it decides the regression check.",
  ].join(' ');
}

const GROUND_TRUTH = 'retrieval/ground_truth/';
