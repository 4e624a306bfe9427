/** Below this the argument is first shifted up, where the Stirling series is accurate to double precision. */
const SERIES_START = 15;
const HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

/**
 * ln Γ(z) for z > 0.
 *
 * For z >= 15, Stirling's series with the Bernoulli numbers B_2..B_12:
 *
 *   ln Γ(z) = (z - 1/2) ln z - z + ln(2π)/2
 *             + 1/(12 z) - 1/(360 z^3) + 1/(1260 z^5) - 1/(1680 z^7)
 *             + 1/(1188 z^9) - 691/(360360 z^11)
 *
 * whose first left-out term, 1/(156 z^13), is below 4e-18 there. Below 15,
 * Γ(z + k) = Γ(z) · z (z + 1) ... (z + k - 1) shifts the argument up:
 *
 *   ln Γ(z) = ln Γ(z + k) - ln(z (z + 1) ... (z + k - 1)),   k = ⌈15 - z⌉
 *
 * Exact at the integers to about 1e-15 relative (ln Γ(5) = ln 24). A z that
 * is not a positive finite number is a bug and throws.
 */
export function logGamma(z: number): number {
  if (!(z > 0) || !Number.isFinite(z)) throw new RangeError(`Expected a positive finite number, got ${z}`);
  let shifted = z;
  let product = 1;
  while (shifted < SERIES_START) {
    product *= shifted;
    shifted += 1;
  }
  return stirlingSeries(shifted) - Math.log(product);
}

function stirlingSeries(z: number): number {
  const inverse = 1 / z;
  const inverseSquared = inverse * inverse;
  // Horner form of 1/(12 z) - 1/(360 z^3) + ... - 691/(360360 z^11).
  const correction =
    inverse *
    (1 / 12 +
      inverseSquared *
        (-1 / 360 +
          inverseSquared * (1 / 1260 + inverseSquared * (-1 / 1680 + inverseSquared * (1 / 1188 + inverseSquared * (-691 / 360360))))));
  return (z - 0.5) * Math.log(z) - z + HALF_LOG_TWO_PI + correction;
}

/**
 * ln B(a, b) = ln Γ(a) + ln Γ(b) - ln Γ(a + b), for a, b > 0. For a large a
 * and a small b the two large terms mostly cancel: with a in the millions
 * the result keeps about 9 significant digits, plenty for a p-value.
 */
export function logBeta(a: number, b: number): number {
  return logGamma(a) + logGamma(b) - logGamma(a + b);
}
