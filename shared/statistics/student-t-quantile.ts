import { studentTTwoSidedPValue } from './student-t.js';

/**
 * The two-sided quantile of Student's t distribution with ν degrees of
 * freedom: the t with P(|T_ν| >= t) = 1 - level, e.g. 2.2622 for level 0.95
 * and ν = 9. Found by bisection on the tail probability (studentTTwoSidedPValue),
 * which falls from 1 at t = 0 towards 0: 200 halvings of [0, 2^20] leave an
 * interval below the spacing of doubles near the answer.
 *
 * Level outside (0, 1) or ν not positive and finite is a bug and throws.
 *
 * The answers are remembered (a few hundred at most: a report asks for a
 * handful of levels and degrees of freedom, but for each of hundreds of
 * pairs of engines, and each bisection is some 70 incomplete beta functions).
 */
export function studentTQuantile(level: number, degreesOfFreedom: number): number {
  if (!(level > 0 && level < 1)) throw new RangeError(`Expected a confidence level between 0 and 1, got ${level}`);
  if (!(degreesOfFreedom > 0) || !Number.isFinite(degreesOfFreedom))
    throw new RangeError(`Expected the degrees of freedom to be a positive finite number, got ${degreesOfFreedom}`);
  const key = `${level} ${degreesOfFreedom}`;
  const known = remembered.get(key);
  if (known !== undefined) return known;
  if (remembered.size >= REMEMBERED) remembered.clear();
  const quantile = bisected(level, degreesOfFreedom);
  remembered.set(key, quantile);
  return quantile;
}

/** How many quantiles are remembered before the memory starts over. */
const REMEMBERED = 512;
const remembered = new Map<string, number>();

function bisected(level: number, degreesOfFreedom: number): number {
  const tail = 1 - level;
  let low = 0;
  let high = 2 ** 20;
  for (let step = 0; step < 200 && high - low > Number.EPSILON * high; step++) {
    const middle = (low + high) / 2;
    if (studentTTwoSidedPValue(middle, degreesOfFreedom) > tail) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}
