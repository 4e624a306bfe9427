import { FIRST_RANK_DISCOUNTS } from './rank-discount-table.js';

/**
 * log2(rank + 1), the DCG discount of the document at a 1-based rank, for
 * integer ranks, correctly rounded and cached.
 *
 * Why not Math.log2: V8's Math.log2 is off by one unit in the last place for
 * some integers (the first is 1375), so an NDCG summed with it can differ from
 * trec_eval's in the last bits. The correctly rounded value is the one any
 * careful libm aims for; glibc's log2, which trec_eval uses, agrees with it for
 * every integer below 1621 and for all but 90 integers up to 2,000,001.
 *
 * Each value is computed in double-double arithmetic (about 106 bits), then
 * rounded to the nearest double; the table grows on demand.
 */

let table = firstDiscounts();

/** log2(rank + 1) for a 1-based integer rank. */
export function rankDiscount(rank: number): number {
  if (rank >= table.length) growTable(rank);
  return table[rank] as number;
}

/** Discounts for ranks 1..n, as a shared read-only view: index i holds log2(i + 1). */
export function rankDiscounts(highestRank: number): Float64Array {
  if (highestRank >= table.length) growTable(highestRank);
  return table;
}

/** Grows the table to hold `rank` (to at least twice its size). */
function growTable(rank: number): void {
  table = computeRankDiscounts(Math.max(rank + 1, table.length * 2, 1024));
}

/**
 * The table's first 1,025 entries, as computed by computeRankDiscounts and
 * written into rank-discount-table.ts by `npm run build:generated` (a test
 * holds the two together): every thread that scores runs needs them at once,
 * and computing them cost each thread 10 to 20 ms before V8 had optimised
 * anything.
 */
function firstDiscounts(): Float64Array {
  const bytes = Buffer.from(FIRST_RANK_DISCOUNTS, 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Float64Array.from({ length: bytes.byteLength / 8 }, (_, rank) => view.getFloat64(rank * 8, true));
}

/**
 * log2(rank + 1) for ranks 0 to size - 1, each correctly rounded: log2 of a
 * prime comes from the series in log2DoubleDouble, and log2 of any other n is
 * log2 of its smallest prime factor p plus log2(n / p), both already known,
 * added in double-double arithmetic, whose error (a few units in the 106th
 * bit) is far below what could move the rounding to a double. One series in
 * six below 1,025.
 */
export function computeRankDiscounts(size: number): Float64Array {
  const next = new Float64Array(size);
  // high[n], low[n]: log2(n) as a double-double, n = index + 1 from 1 to size.
  const high = new Float64Array(size + 1);
  const low = new Float64Array(size + 1);
  const smallestFactor = smallestPrimeFactors(size);
  for (let n = 2; n <= size; n++) {
    const factor = smallestFactor[n] as number;
    if (factor === n) {
      high[n] = log2DoubleDouble(n);
    } else {
      const rest = n / factor;
      high[n] = add(high[factor] as number, low[factor] as number, high[rest] as number, low[rest] as number);
    }
    low[n] = carry;
    next[n - 1] = (high[n] as number) + (low[n] as number);
  }
  return next;
}

/** smallest[n]: the smallest prime dividing n, for n from 2 to `limit` (a sieve). */
function smallestPrimeFactors(limit: number): Int32Array {
  const smallest = new Int32Array(limit + 1);
  for (let n = 2; n <= limit; n++) {
    if (smallest[n] !== 0) continue;
    for (let multiple = n; multiple <= limit; multiple += n) if (smallest[multiple] === 0) smallest[multiple] = n;
  }
  return smallest;
}

/**
 * Correctly rounded log2(n) for an integer n >= 1.
 *
 * The double-double arithmetic below works on pairs (high, low) passed as
 * separate numbers, each function returning the high part and leaving the
 * low part in `carry`: a table of a thousand ranks is built at the start of
 * every worker thread, and allocating a pair per operation made that cost
 * tens of milliseconds.
 */
export function correctlyRoundedLog2(n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`Expected an integer from 1 and up, got ${n}`);
  const high = log2DoubleDouble(n);
  return high + carry;
}

/** log2(n) for an integer n >= 1 as a double-double: returns the high part and leaves the low part in `carry`. */
function log2DoubleDouble(n: number): number {
  // n = 2^exponent * mantissa with mantissa in [sqrt(1/2), sqrt(2)], both exact.
  let exponent = Math.round(Math.log2(n));
  let power = 2 ** exponent;
  let mantissa = n / power;
  while (mantissa > Math.SQRT2) {
    exponent += 1;
    power *= 2;
    mantissa = n / power;
  }
  while (mantissa < Math.SQRT1_2) {
    exponent -= 1;
    power /= 2;
    mantissa = n / power;
  }
  if (mantissa === 1) {
    carry = 0;
    return exponent;
  }
  // ln(m) = 2 atanh(t) with t = (m - 1) / (m + 1), |t| <= 0.172: the series
  // t + t^3/3 + t^5/5 + ... gains about 5 bits a term.
  const denominatorHigh = twoSum(mantissa, 1);
  const tHigh = divide(mantissa - 1, 0, denominatorHigh, carry);
  const tLow = carry;
  const tSquaredHigh = multiply(tHigh, tLow, tHigh, tLow);
  const tSquaredLow = carry;
  let termHigh = tHigh;
  let termLow = tLow;
  let sumHigh = tHigh;
  let sumLow = tLow;
  for (let k = 3; k < 80; k += 2) {
    termHigh = multiply(termHigh, termLow, tSquaredHigh, tSquaredLow);
    termLow = carry;
    const addendHigh = divide(termHigh, termLow, k, 0);
    const addendLow = carry;
    sumHigh = add(sumHigh, sumLow, addendHigh, addendLow);
    sumLow = carry;
    if (Math.abs(addendHigh) < 1e-36) break;
  }
  const twiceSumHigh = multiply(2, 0, sumHigh, sumLow);
  const log2OfMantissaHigh = divide(twiceSumHigh, carry, LN2_HIGH, LN2_LOW);
  return add(exponent, 0, log2OfMantissaHigh, carry);
}

/** ln 2 as a double-double. */
const LN2_HIGH = Math.LN2;
const LN2_LOW = 2.3190468138462996e-17;

/** The low part of the double-double the last operation returned the high part of. */
let carry = 0;

function twoSum(a: number, b: number): number {
  const sum = a + b;
  const bVirtual = sum - a;
  carry = a - (sum - bVirtual) + (b - bVirtual);
  return sum;
}

function quickTwoSum(a: number, b: number): number {
  const sum = a + b;
  carry = b - (sum - a);
  return sum;
}

function splitHigh(a: number): number {
  const scaled = 134217729 * a; // 2^27 + 1
  return scaled - (scaled - a);
}

function twoProduct(a: number, b: number): number {
  const product = a * b;
  const aHigh = splitHigh(a);
  const aLow = a - aHigh;
  const bHigh = splitHigh(b);
  const bLow = b - bHigh;
  carry = aHigh * bHigh - product + aHigh * bLow + aLow * bHigh + aLow * bLow;
  return product;
}

function add(aHigh: number, aLow: number, bHigh: number, bLow: number): number {
  const sum = twoSum(aHigh, bHigh);
  const sumError = carry;
  const low = twoSum(aLow, bLow);
  const lowError = carry;
  const high1 = quickTwoSum(sum, sumError + low);
  return quickTwoSum(high1, carry + lowError);
}

function multiply(aHigh: number, aLow: number, bHigh: number, bLow: number): number {
  const product = twoProduct(aHigh, bHigh);
  return quickTwoSum(product, carry + aHigh * bLow + aLow * bHigh);
}

function divide(aHigh: number, aLow: number, bHigh: number, bLow: number): number {
  const quotient1 = aHigh / bHigh;
  let productHigh = multiply(-quotient1, 0, bHigh, bLow);
  let remainderHigh = add(aHigh, aLow, productHigh, carry);
  let remainderLow = carry;
  const quotient2 = remainderHigh / bHigh;
  productHigh = multiply(-quotient2, 0, bHigh, bLow);
  remainderHigh = add(remainderHigh, remainderLow, productHigh, carry);
  remainderLow = carry;
  const quotient3 = remainderHigh / bHigh;
  const quotientHigh = quickTwoSum(quotient1, quotient2);
  return add(quotientHigh, carry, quotient3, 0);
}
