import { decodeField } from './byte-lines.js';

/** 10^0 to 10^22, each exact as a double. */
export const POWERS_OF_TEN = Array.from({ length: 23 }, (_, exponent) => 10 ** exponent);

/**
 * Parses a decimal number from `buffer[start, end)` to the same double as
 * `Number(text)` (and C's atof on a well-formed number), or NaN.
 *
 * Fast path for the common "123.456789": when the digits form an integer
 * below 10^15 and there are at most 22 decimals, integer / 10^decimals is a
 * single correctly rounded division of two exact doubles (Clinger's fast
 * path), which is exactly the correctly rounded value of the text. Anything
 * else (exponents, long mantissas, "inf") goes through Number().
 */
export function parseNumberBytes(buffer: Buffer, start: number, end: number): number {
  let index = start;
  let negative = false;
  const sign = buffer[index];
  if (sign === 45 || sign === 43) {
    negative = sign === 45;
    index++;
  }
  let mantissa = 0;
  let digits = 0;
  let decimals = 0;
  let seenPoint = false;
  for (; index < end; index++) {
    const byte = buffer[index] as number;
    if (byte >= 48 && byte <= 57) {
      mantissa = mantissa * 10 + (byte - 48);
      digits++;
      if (seenPoint) decimals++;
    } else if (byte === 46 && !seenPoint) {
      seenPoint = true;
    } else {
      return slowParse(buffer, start, end);
    }
  }
  if (digits === 0 || digits > 15 || decimals > 22) return slowParse(buffer, start, end);
  const value = mantissa / (POWERS_OF_TEN[decimals] as number);
  return negative ? -value : value;
}

function slowParse(buffer: Buffer, start: number, end: number): number {
  const text = decodeField(buffer, start, end);
  return text.trim() === '' ? Number.NaN : Number(text);
}
