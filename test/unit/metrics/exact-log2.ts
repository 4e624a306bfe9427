/**
 * An independent reference for log2 of an integer, correctly rounded to a
 * double, in exact BigInt arithmetic: the fraction bits come from repeated
 * squaring (m in [1, 2): square it; if the square reaches 2 the next bit is 1
 * and the square is halved). Slow, but simple enough to trust.
 */

const WORKING_BITS = 256n;
const FRACTION_BITS = 110;

export function referenceLog2(n: number): number {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`Expected a safe integer from 1 and up, got ${n}`);
  const value = BigInt(n);
  const exponent = value.toString(2).length - 1;
  // mantissa = n / 2^exponent in [1, 2), as a fixed-point number with WORKING_BITS fraction bits
  let mantissa = (value << WORKING_BITS) >> BigInt(exponent);
  const two = 2n << WORKING_BITS;
  let fraction = 0n;
  for (let bit = 0; bit < FRACTION_BITS; bit++) {
    mantissa = (mantissa * mantissa) >> WORKING_BITS;
    fraction <<= 1n;
    if (mantissa >= two) {
      fraction |= 1n;
      mantissa >>= 1n;
    }
  }
  // log2(n) ~ (exponent * 2^F + fraction) / 2^F, truncated; round it to 53 significant bits.
  const truncated = (BigInt(exponent) << BigInt(FRACTION_BITS)) | fraction;
  if (truncated === 0n) return 0;
  const shift = truncated.toString(2).length - 53;
  let significand = truncated >> BigInt(shift);
  const remainder = truncated - (significand << BigInt(shift));
  // The true value lies above the truncated one (log2 of a non-power of two is irrational),
  // so a remainder of exactly one half still rounds up.
  if (remainder * 2n >= 1n << BigInt(shift)) significand += 1n;
  return Number(significand) * 2 ** (shift - FRACTION_BITS);
}

/** Distance between two positive finite doubles in units in the last place. */
export function ulpDistance(a: number, b: number): number {
  const view = new DataView(new ArrayBuffer(16));
  view.setFloat64(0, a);
  view.setFloat64(8, b);
  const difference = view.getBigInt64(0) - view.getBigInt64(8);
  return Number(difference < 0n ? -difference : difference);
}
