import { cohenKappa, type ConfusionCounts } from '../statistics/cohen-kappa.js';
import { definedAs, undefinedBecause, type Statistic } from '../statistics/statistic.js';

/** The statistics of label agreement that a table of counts determines (no resampling). */
export interface CountedAgreement {
  readonly pairs: number;
  readonly exactAgreement: Statistic;
  readonly cohenKappa: Statistic;
  readonly weightedKappa: Statistic;
  readonly binary: BinaryAgreement;
}

/** The same, with grades cut into relevant (grade >= level) or not, the human reading as the truth. */
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
 * Agreement of a judge with the human from their confusion counts alone:
 * counts[i][j] = pairs the human graded categories[i] and the judge
 * categories[j], categories ascending. Kappa (cohen-kappa.ts) is plain over
 * the categories as unordered classes and quadratic-weighted over their
 * positions; the binary statistics cut the grades at `level`. A run's report
 * keeps only these counts, so a million cases cost a few cells, not a list of
 * pairs; labelAgreement computes its point statistics here too.
 */
export function countedAgreement(counts: ConfusionCounts, categories: readonly number[], level: number): CountedAgreement {
  if (counts.length !== categories.length)
    throw new RangeError(`Expected one row of counts per category, got ${counts.length} rows for ${categories.length} categories`);
  const relevant = categories.map((grade) => grade >= level);
  let total = 0;
  let agreeing = 0;
  for (const [row, cells] of counts.entries()) {
    for (const [column, count] of cells.entries()) {
      total += count;
      if (row === column) agreeing += count;
    }
  }
  return {
    pairs: total,
    exactAgreement: share(agreeing, total, 'no pair is labelled by both'),
    cohenKappa: cohenKappa(counts),
    weightedKappa: cohenKappa(counts, 'quadratic'),
    binary: binaryAgreement(binaryCounts(counts, relevant), level),
  };
}

/** The 2 × 2 table [not relevant, relevant] of a table over graded categories. */
export function binaryCounts(counts: ConfusionCounts, relevant: readonly boolean[]): number[][] {
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
    agreement: share(neither + both, total, 'no pair is labelled by both'),
    precision: share(both, both + judgeOnly, `the judge grades no pair ${level} or higher`),
    recall: share(both, both + humanOnly, `the human labels grade no pair ${level} or higher`),
  };
}

function share(part: number, whole: number, reasonWhenEmpty: string): Statistic {
  return whole === 0 ? undefinedBecause(reasonWhenEmpty) : definedAs(part / whole);
}
