import { definedAs, undefinedBecause, type Statistic } from './statistic.js';

/** Disagreement weights: `none` counts every disagreement alike; `quadratic` by squared distance. */
export type KappaWeights = 'none' | 'quadratic';

/**
 * A square table of counts between two raters over the same K ordered
 * categories: counts[i][j] = items the first rater put in category i and the
 * second in category j.
 */
export type ConfusionCounts = readonly (readonly number[])[];

/**
 * Cohen's kappa (Cohen 1960) and weighted kappa (Cohen 1968) of two raters
 * from their confusion counts C (K × K, N = Σ C_ij items):
 *
 *   r_i = Σ_j C_ij (first rater's totals), c_j = Σ_i C_ij (second rater's),
 *   E_ij = r_i c_j / N (the counts expected if the raters were independent),
 *   κ = 1 - Σ w_ij C_ij / Σ w_ij E_ij
 *
 * with disagreement weights w_ij = 0 on the diagonal and, off it, 1 (`none`:
 * plain kappa, equal to (p_o - p_e) / (1 - p_e) with p_o the observed and
 * p_e the chance agreement) or (i - j)² (`quadratic`). The distance i - j is
 * between positions in the category list, not between the category values:
 * this is scikit-learn's `cohen_kappa_score(labels=..., weights=...)`.
 * Categories no item falls in add empty rows and columns, which change
 * plain kappa not at all but weighted kappa through the positions.
 *
 * Computed as 1 - N Σ w C / Σ w r c, exact integer sums while they stay
 * below 2^53.
 *
 * Undefined (a reason, never NaN) when there is no item, or when Σ w E = 0:
 * both raters put every item in one and the same category, so chance
 * agreement is already perfect. 1 is perfect agreement, 0 chance level,
 * negative below chance (the minimum depends on the marginals).
 * A table that is not square or holds a count that is not a non-negative
 * integer is a bug and throws.
 */
export function cohenKappa(counts: ConfusionCounts, weights: KappaWeights = 'none'): Statistic {
  const size = counts.length;
  const rowTotals = new Array<number>(size).fill(0);
  const columnTotals = new Array<number>(size).fill(0);
  let total = 0;
  for (const [row, cells] of counts.entries()) {
    if (cells.length !== size)
      throw new RangeError(`Expected a square table of counts, row ${row} has ${cells.length} cells for ${size} rows`);
    for (const [column, count] of cells.entries()) {
      if (!Number.isInteger(count) || count < 0) throw new RangeError(`Expected counts to be integers from 0 up, got ${count}`);
      rowTotals[row] = (rowTotals[row] as number) + count;
      columnTotals[column] = (columnTotals[column] as number) + count;
      total += count;
    }
  }
  if (total === 0) return undefinedBecause('no item is rated by both raters');
  let observed = 0;
  let expected = 0;
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) {
      const weight = disagreementWeight(row, column, weights);
      observed += weight * ((counts[row] as readonly number[])[column] as number);
      expected += weight * (rowTotals[row] as number) * (columnTotals[column] as number);
    }
  }
  if (expected === 0) return undefinedBecause('both raters put every item in the same single category, so chance agreement is 1');
  return definedAs(1 - (total * observed) / expected);
}

function disagreementWeight(row: number, column: number, weights: KappaWeights): number {
  if (row === column) return 0;
  return weights === 'none' ? 1 : (row - column) ** 2;
}

/**
 * The confusion counts of two parallel lists of labels over `categories`
 * (each label must be one of them; a label that is not is a bug and throws).
 */
export function confusionCounts(first: readonly number[], second: readonly number[], categories: readonly number[]): number[][] {
  if (first.length !== second.length)
    throw new RangeError(`Expected two lists of the same length, got ${first.length} and ${second.length}`);
  const position = new Map(categories.map((category, index) => [category, index]));
  const counts = categories.map(() => new Array<number>(categories.length).fill(0));
  for (const [index, label] of first.entries()) {
    const row = position.get(label);
    const column = position.get(second[index] as number);
    if (row === undefined || column === undefined)
      throw new RangeError(`Label at index ${index} is not one of the categories ${categories.join(', ')}`);
    (counts[row] as number[])[column] = ((counts[row] as number[])[column] as number) + 1;
  }
  return counts;
}
