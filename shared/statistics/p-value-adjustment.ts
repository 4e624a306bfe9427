/**
 * Adjusting a family of p-values for multiple comparisons: one adjusted
 * p-value per test, in the tests' own order, so that "adjusted p < alpha"
 * makes the family's decisions at level alpha.
 *
 * - `holm`: Holm's step-down procedure (Holm, "A simple sequentially
 *   rejective multiple test procedure", Scandinavian Journal of Statistics 6,
 *   1979). It holds the family-wise error rate, the chance of any false
 *   finding, at alpha, whatever the dependence between the tests: the choice
 *   for a gate that must not fire by chance.
 * - `benjamini-hochberg`: Benjamini and Hochberg's step-up procedure
 *   ("Controlling the false discovery rate", JRSS B 57, 1995). It holds the
 *   expected share of false findings among the findings at alpha, for
 *   independent or positively dependent tests (Benjamini and Yekutieli, Annals
 *   of Statistics 29, 2001): more findings where many differences are real,
 *   as between the engines of a sweep.
 * - `none`: the p-values as they are.
 *
 * With the m p-values sorted, p_(1) <= ... <= p_(m) (ties kept in the
 * tests' order; the result does not depend on how ties are broken):
 *
 *   holm:               adj_(i) = min(1, max_{j <= i} (m − j + 1) · p_(j))
 *   benjamini-hochberg: adj_(i) = min(1, min_{j >= i} m · p_(j) / j)
 *
 * These are the adjusted p-values of R's p.adjust. An adjusted p-value is
 * never below its raw one. A p-value outside [0, 1] (or NaN) is a bug of the
 * caller and throws.
 */
export type PValueAdjustment = 'holm' | 'benjamini-hochberg' | 'none';

export const P_VALUE_ADJUSTMENTS = ['holm', 'benjamini-hochberg', 'none'] as const satisfies readonly PValueAdjustment[];

export function adjustPValues(pValues: readonly number[], method: PValueAdjustment): number[] {
  switch (method) {
    case 'holm':
      return holmAdjusted(pValues);
    case 'benjamini-hochberg':
      return benjaminiHochbergAdjusted(pValues);
    case 'none':
      return checked(pValues).slice();
  }
}

/** Holm's step-down adjusted p-values (see above). */
export function holmAdjusted(pValues: readonly number[]): number[] {
  const order = ascending(checked(pValues));
  const count = order.length;
  const adjusted = new Array<number>(count);
  let running = 0;
  for (const [rank, index] of order.entries()) {
    running = Math.max(running, Math.min(1, (count - rank) * (pValues[index] as number)));
    adjusted[index] = running;
  }
  return adjusted;
}

/** Benjamini and Hochberg's step-up adjusted p-values (see above). */
export function benjaminiHochbergAdjusted(pValues: readonly number[]): number[] {
  const order = ascending(checked(pValues));
  const count = order.length;
  const adjusted = new Array<number>(count);
  let running = 1;
  for (let rank = count - 1; rank >= 0; rank--) {
    const index = order[rank] as number;
    running = Math.min(running, (count * (pValues[index] as number)) / (rank + 1));
    adjusted[index] = running;
  }
  return adjusted;
}

/** The indices of the p-values from the smallest up; equal ones in their own order. */
function ascending(pValues: readonly number[]): number[] {
  return pValues.map((_, index) => index).sort((left, right) => (pValues[left] as number) - (pValues[right] as number) || left - right);
}

function checked(pValues: readonly number[]): readonly number[] {
  for (const [index, value] of pValues.entries()) {
    if (!(value >= 0 && value <= 1)) throw new RangeError(`Expected p-values between 0 and 1, got ${value} at index ${index}`);
  }
  return pValues;
}
