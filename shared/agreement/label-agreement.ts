import { percentileBootstrapIntervals, type IntervalResult, type PercentileBootstrapOptions } from '../statistics/bootstrap-interval.js';
import { cohenKappa, confusionCounts, type ConfusionCounts } from '../statistics/cohen-kappa.js';
import { definedAs, undefinedBecause, type Statistic } from '../statistics/statistic.js';
import type { LabelPairs } from './label-pairs.js';

/** Agreement of the judge's grades with the human's over the pairs both label. */
export interface LabelAgreement {
  readonly pairs: number;
  readonly exactAgreement: Statistic;
  readonly cohenKappa: Statistic;
  readonly weightedKappa: Statistic;
  readonly binary: BinaryAgreement;
  /** counts[i][j] = pairs the human graded categories[i] and the judge categories[j]. */
  readonly confusion: ConfusionCounts;
  readonly intervals: { cohenKappa: IntervalResult; weightedKappa: IntervalResult; binaryKappa: IntervalResult };
}

/** The same, with grades cut into relevant (grade >= level) or not, the human's reading as the truth. */
export interface BinaryAgreement {
  readonly level: number;
  readonly kappa: Statistic;
  readonly agreement: Statistic;
  /** Of the pairs the judge calls relevant, the share the human calls relevant too. */
  readonly precision: Statistic;
  /** Of the pairs the human calls relevant, the share the judge calls relevant too. */
  readonly recall: Statistic;
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
  const cellOfPair = Int32Array.from(pairs.human, (grade, index) => (positions.get(grade) as number) * size + (positions.get(pairs.judge[index] as number) as number));
  const cellCounts = new Int32Array(size * size);
  const resampledKappas = (indices: Int32Array): (number | undefined)[] => {
    cellCounts.fill(0);
    for (const index of indices) {
      const cell = cellOfPair[index] as number;
      cellCounts[cell] = (cellCounts[cell] as number) + 1;
    }
    const counts = pairs.categories.map((_, row) => Array.from(cellCounts.subarray(row * size, (row + 1) * size)));
    return [cohenKappa(counts), cohenKappa(counts, 'quadratic'), cohenKappa(binaryCounts(counts, relevant))].map((kappa) => (kappa.ok ? kappa.value : undefined));
  };
  const [plainInterval, weightedInterval, binaryInterval] = percentileBootstrapIntervals(pairs.human.length, 3, resampledKappas, bootstrap) as [
    IntervalResult,
    IntervalResult,
    IntervalResult,
  ];

  const agreeing = confusion.reduce((total, row, index) => total + (row[index] as number), 0);
  return {
    pairs: pairs.human.length,
    exactAgreement: share(agreeing, pairs.human.length, 'no pair is labelled in both qrels'),
    cohenKappa: cohenKappa(confusion),
    weightedKappa: cohenKappa(confusion, 'quadratic'),
    binary: binaryAgreement(binaryCounts(confusion, relevant), level),
    confusion,
    intervals: { cohenKappa: plainInterval, weightedKappa: weightedInterval, binaryKappa: binaryInterval },
  };
}

/** The 2 × 2 table [not relevant, relevant] of a table over graded categories. */
function binaryCounts(counts: ConfusionCounts, relevant: readonly boolean[]): number[][] {
  const binary = [
    [0, 0],
    [0, 0],
  ];
  for (const [row, cells] of counts.entries()) {
    for (const [column, count] of cells.entries()) {
      const target = binary[relevant[row] ? 1 : 0] as number[];
      const slot = relevant[column] ? 1 : 0;
      target[slot] = (target[slot] as number) + count;
    }
  }
  return binary;
}

function binaryAgreement(counts: number[][], level: number): BinaryAgreement {
  const [[neither = 0, judgeOnly = 0] = [], [humanOnly = 0, both = 0] = []] = counts;
  const total = neither + judgeOnly + humanOnly + both;
  return {
    level,
    kappa: cohenKappa(counts),
    agreement: share(neither + both, total, 'no pair is labelled in both qrels'),
    precision: share(both, both + judgeOnly, `the judge grades no pair ${level} or higher`),
    recall: share(both, both + humanOnly, `the human qrels grade no pair ${level} or higher`),
  };
}

function share(part: number, whole: number, reasonWhenEmpty: string): Statistic {
  return whole === 0 ? undefinedBecause(reasonWhenEmpty) : definedAs(part / whole);
}
