import { percentileBootstrapIntervals, type IntervalResult, type PercentileBootstrapOptions } from '../statistics/bootstrap-interval.js';
import { cohenKappa, confusionCounts, type ConfusionCounts } from '../statistics/cohen-kappa.js';
import { binaryCounts, countedAgreement, type CountedAgreement } from './counted-agreement.js';
import type { LabelPairs } from './label-pairs.js';

export type { BinaryAgreement } from './counted-agreement.js';

/** Agreement of the judge's grades with the human's over the pairs both label, with intervals. */
export interface LabelAgreement extends CountedAgreement {
  /** counts[i][j] = pairs the human graded categories[i] and the judge categories[j]. */
  readonly confusion: ConfusionCounts;
  readonly intervals: { cohenKappa: IntervalResult; weightedKappa: IntervalResult; binaryKappa: IntervalResult };
}

/**
 * Compares the grades of every labelled pair. Kappa (cohen-kappa.ts) takes the
 * grades as the categories of `pairs.categories`, unordered for Cohen's kappa
 * and ordered (quadratic weights) for weighted kappa. The intervals resample
 * the pairs (percentile bootstrap, bootstrap-interval.ts); the three kappas
 * are computed on the same resamples.
 */
export function labelAgreement(pairs: LabelPairs, level: number, bootstrap: PercentileBootstrapOptions): LabelAgreement {
  const confusion = confusionCounts(pairs.human, pairs.judge, pairs.categories);
  const relevant = pairs.categories.map((grade) => grade >= level);
  const size = pairs.categories.length;
  const positions = new Map(pairs.categories.map((grade, index) => [grade, index]));
  // Each pair as its cell of the table, so a resample is counted with one lookup a draw.
  const cellOfPair = Int32Array.from(
    pairs.human,
    (grade, index) => (positions.get(grade) as number) * size + (positions.get(pairs.judge[index] as number) as number),
  );
  const cellCounts = new Int32Array(size * size);
  const resampledKappas = (indices: Int32Array): (number | undefined)[] => {
    cellCounts.fill(0);
    for (const index of indices) {
      const cell = cellOfPair[index] as number;
      cellCounts[cell] = (cellCounts[cell] as number) + 1;
    }
    const counts = pairs.categories.map((_, row) => Array.from(cellCounts.subarray(row * size, (row + 1) * size)));
    return [cohenKappa(counts), cohenKappa(counts, 'quadratic'), cohenKappa(binaryCounts(counts, relevant))].map((kappa) =>
      kappa.ok ? kappa.value : undefined,
    );
  };
  const [plainInterval, weightedInterval, binaryInterval] = percentileBootstrapIntervals(
    pairs.human.length,
    3,
    resampledKappas,
    bootstrap,
  ) as [IntervalResult, IntervalResult, IntervalResult];

  return {
    ...countedAgreement(confusion, pairs.categories, level),
    confusion,
    intervals: { cohenKappa: plainInterval, weightedKappa: weightedInterval, binaryKappa: binaryInterval },
  };
}
