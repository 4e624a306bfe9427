/**
 * The quantile at q in [0, 1] of numbers sorted in ascending order,
 * interpolating linearly between neighbours at position h = (n - 1) q
 * (Hyndman & Fan type 7, R's and NumPy's default):
 *
 *   Q(q) = x_(⌊h⌋+1) + (h - ⌊h⌋)(x_(⌊h⌋+2) - x_(⌊h⌋+1))
 *
 * An empty list is a bug and throws.
 */
export function typeSevenQuantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) throw new RangeError('Expected at least one value to take a quantile of');
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const lower = sorted[below] as number;
  const upper = sorted[Math.min(below + 1, sorted.length - 1)] as number;
  return lower + (position - below) * (upper - lower);
}
