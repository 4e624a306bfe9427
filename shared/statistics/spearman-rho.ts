import { assertPaired } from './kendall-tau.js';
import { definedAs, undefinedBecause, type Statistic } from './statistic.js';

/**
 * Spearman's rank correlation ρ (Spearman 1904) between two paired lists x
 * and y of n values, with ties as SciPy's `spearmanr` handles them: each
 * list is replaced by its ranks (1 for the smallest), tied values sharing
 * the average of the ranks they span (values 5, 7, 7, 9 rank 1, 2.5, 2.5, 4),
 * and ρ is Pearson's correlation of the two rank lists:
 *
 *   ρ = Σ (a_i - ā)(b_i - b̄) / √(Σ (a_i - ā)² Σ (b_i - b̄)²)
 *
 * with a and b the ranks of x and y and ā = b̄ = (n + 1)/2. Without ties this
 * equals 1 - 6 Σ (a_i - b_i)² / (n(n² - 1)); with ties it does not, and the
 * Pearson form is the one SciPy computes.
 *
 * Undefined (a reason, never NaN) with fewer than 2 pairs of values, or when
 * every value of x, or of y, is the same (its ranks have no variance).
 * Lists of different lengths or holding a NaN are a bug and throw.
 */
export function spearmanRho(x: readonly number[], y: readonly number[]): Statistic {
  assertPaired(x, y);
  const count = x.length;
  if (count < 2) return undefinedBecause(`needs at least 2 pairs of values, got ${count}`);
  const ranksOfX = averageRanks(x);
  const ranksOfY = averageRanks(y);
  const meanRank = (count + 1) / 2;
  let products = 0;
  let squaresOfX = 0;
  let squaresOfY = 0;
  for (let index = 0; index < count; index++) {
    const deviationOfX = (ranksOfX[index] as number) - meanRank;
    const deviationOfY = (ranksOfY[index] as number) - meanRank;
    products += deviationOfX * deviationOfY;
    squaresOfX += deviationOfX * deviationOfX;
    squaresOfY += deviationOfY * deviationOfY;
  }
  if (squaresOfX === 0) return undefinedBecause('every value of the first list is the same');
  if (squaresOfY === 0) return undefinedBecause('every value of the second list is the same');
  const rho = products / Math.sqrt(squaresOfX * squaresOfY);
  return definedAs(Math.max(-1, Math.min(1, rho)));
}

/**
 * Ranks from 1 (smallest value) to n, tied values sharing the mean of the
 * ranks they occupy (the "average" method of SciPy's `rankdata`). Ranks are
 * multiples of 1/2, exact in floating point.
 */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((_, index) => index).sort((left, right) => (values[left] as number) - (values[right] as number));
  const ranks = new Array<number>(values.length);
  let start = 0;
  while (start < order.length) {
    let end = start + 1;
    while (end < order.length && values[order[end] as number] === values[order[start] as number]) end++;
    // Positions start..end-1 hold ranks start+1..end; their mean is (start + 1 + end) / 2.
    const shared = (start + 1 + end) / 2;
    for (let position = start; position < end; position++) ranks[order[position] as number] = shared;
    start = end;
  }
  return ranks;
}
