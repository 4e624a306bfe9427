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
 * The value is computed once per rank in double-double arithmetic (about 106
 * bits), then rounded to the nearest double; the table grows on demand.
 */

let table = new Float64Array(0);

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

function growTable(rank: number): void {
  const size = Math.max(rank + 1, table.length * 2, 1024);
  const next = new Float64Array(size);
  next.set(table);
  for (let index = Math.max(table.length, 1); index < size; index++) {
    next[index] = correctlyRoundedLog2(index + 1);
  }
  table = next;
}

type DoubleDouble = readonly [high: number, low: number];

/** Correctly rounded log2(n) for an integer n >= 1. */
export function correctlyRoundedLog2(n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`Expected an integer from 1 and up, got ${n}`);
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
  if (mantissa === 1) return exponent;
  // ln(m) = 2 atanh(t) with t = (m - 1) / (m + 1), |t| <= 0.172: the series
  // t + t^3/3 + t^5/5 + ... gains about 5 bits a term.
  const t = divide([mantissa - 1, 0], twoSum(mantissa, 1));
  const tSquared = multiply(t, t);
  let term: DoubleDouble = t;
  let sum: DoubleDouble = t;
  for (let k = 3; k < 80; k += 2) {
    term = multiply(term, tSquared);
    const addend = divide(term, [k, 0]);
    sum = add(sum, addend);
    if (Math.abs(addend[0]) < 1e-36) break;
  }
  const log2OfMantissa = divide(multiply([2, 0], sum), LN2);
  const result = add([exponent, 0], log2OfMantissa);
  return result[0] + result[1];
}

/** ln 2 as a double-double (high part is Math.LN2). */
const LN2: DoubleDouble = [0.6931471805599453, 2.3190468138462996e-17];

function twoSum(a: number, b: number): DoubleDouble {
  const sum = a + b;
  const bVirtual = sum - a;
  return [sum, a - (sum - bVirtual) + (b - bVirtual)];
}

function quickTwoSum(a: number, b: number): DoubleDouble {
  const sum = a + b;
  return [sum, b - (sum - a)];
}

function split(a: number): DoubleDouble {
  const scaled = 134217729 * a; // 2^27 + 1
  const high = scaled - (scaled - a);
  return [high, a - high];
}

function twoProduct(a: number, b: number): DoubleDouble {
  const product = a * b;
  const [aHigh, aLow] = split(a);
  const [bHigh, bLow] = split(b);
  return [product, aHigh * bHigh - product + aHigh * bLow + aLow * bHigh + aLow * bLow];
}

function add(a: DoubleDouble, b: DoubleDouble): DoubleDouble {
  const [sum, sumError] = twoSum(a[0], b[0]);
  const [low, lowError] = twoSum(a[1], b[1]);
  const [high1, low1] = quickTwoSum(sum, sumError + low);
  return quickTwoSum(high1, low1 + lowError);
}

function multiply(a: DoubleDouble, b: DoubleDouble): DoubleDouble {
  const [product, error] = twoProduct(a[0], b[0]);
  return quickTwoSum(product, error + a[0] * b[1] + a[1] * b[0]);
}

function divide(a: DoubleDouble, b: DoubleDouble): DoubleDouble {
  const quotient1 = a[0] / b[0];
  let remainder = add(a, multiply([-quotient1, 0], b));
  const quotient2 = remainder[0] / b[0];
  remainder = add(remainder, multiply([-quotient2, 0], b));
  const quotient3 = remainder[0] / b[0];
  return add(quickTwoSum(quotient1, quotient2), [quotient3, 0]);
}
