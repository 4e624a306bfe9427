/**
 * An independent reference for C's `printf("%6.4f", value)` on a finite
 * double, in exact BigInt arithmetic: the double is an exact rational
 * mantissa * 2^exponent, which is scaled by 10^4 and rounded half to even
 * (glibc's rounding of an exact tie), then right-aligned in six characters.
 */
export function referenceFixed4(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`Expected a finite number, got ${value}`);
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const biasedExponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  // value = ±mantissa * 2^exponent exactly (subnormals have no hidden bit)
  const mantissa = biasedExponent === 0 ? fraction : fraction | (1n << 52n);
  const exponent = biasedExponent === 0 ? -1074 : biasedExponent - 1075;
  let numerator = mantissa * 10_000n;
  let denominator = 1n;
  if (exponent >= 0) numerator <<= BigInt(exponent);
  else denominator <<= BigInt(-exponent);
  let scaled = numerator / denominator;
  const twiceRemainder = 2n * (numerator % denominator);
  if (twiceRemainder > denominator || (twiceRemainder === denominator && scaled % 2n === 1n)) scaled += 1n;
  const decimals = (scaled % 10_000n).toString().padStart(4, '0');
  return `${negative ? '-' : ''}${scaled / 10_000n}.${decimals}`.padStart(6);
}
