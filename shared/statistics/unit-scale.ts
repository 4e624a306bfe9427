/**
 * Values divided by their largest magnitude, so that every one lies in
 * [-1, 1] and no sum of n of them can overflow (a sum of values near
 * ±1.8e308 would be infinite, and infinity minus infinity NaN). Sign-flip
 * tests and t statistics do not change under scaling; means are multiplied
 * back by `scale`.
 *
 * - `scale` = max |value|; 0 when there is no value or every value is 0
 *   (the values are then returned as they are).
 * - A value that is NaN or infinite is a bug of the caller and throws.
 */
export function scaleToUnit(values: readonly number[], name: string): { values: number[]; scale: number } {
  let scale = 0;
  for (const [index, value] of values.entries()) {
    if (!Number.isFinite(value)) throw new RangeError(`Expected ${name} to be finite numbers, got ${value} at index ${index}`);
    scale = Math.max(scale, Math.abs(value));
  }
  if (scale === 0) return { values: [...values], scale: 0 };
  return { values: values.map((value) => value / scale), scale };
}

/** Σ values, added in the given order. */
export function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
