import type { Evaluation, MeasureValue } from './evaluate.js';

/**
 * trec_eval's text output: `%-22s\t%s\t%6.4f` per value (`%ld` for counts, the
 * run tag as is for runid), per-topic rows first when asked, then the summary
 * rows with topic id `all`.
 */
export function formatTrecText(evaluation: Evaluation, options: { perTopic: boolean; summary: boolean }): string {
  const lines: string[] = [];
  if (options.perTopic) {
    for (const topic of evaluation.perTopic) {
      for (const value of topic.values) lines.push(formatRow(value, topic.topicId));
    }
  }
  if (options.summary) for (const value of evaluation.summary) lines.push(formatRow(value, 'all'));
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

function formatRow(value: MeasureValue, topicId: string): string {
  const text = typeof value.value === 'string' ? value.value : value.integer ? String(Math.trunc(value.value)) : formatFixed4(value.value);
  return `${value.name.padEnd(22)}\t${topicId}\t${text}`;
}

/**
 * C's `printf("%6.4f")`: four decimals, right-aligned in six characters.
 *
 * toFixed agrees with glibc except on exact ties, which it rounds away from
 * zero where glibc rounds them to even; at four decimals a double is an exact
 * tie only when it is an odd multiple of 1/32. Those, values from 2^40 up
 * (where toFixed's own exactness and notation end) and -0 take an exact
 * path in BigInt arithmetic.
 */
export function formatFixed4(value: number): string {
  if (!Number.isFinite(value)) return (Number.isNaN(value) ? '-nan' : value > 0 ? 'inf' : '-inf').padStart(6);
  const magnitude = Math.abs(value);
  const thirtySeconds = magnitude * 32;
  const exactTie = Number.isInteger(thirtySeconds) && thirtySeconds % 2 === 1;
  const text = exactTie || magnitude >= 2 ** 40 || Object.is(value, -0) ? exactFixed4(value) : value.toFixed(4);
  return text.padStart(6);
}

/** |value| * 10^4 rounded half to even, in exact integer arithmetic, as four decimals. */
function exactFixed4(value: number): string {
  const { mantissa, exponent } = decompose(Math.abs(value));
  const numerator = mantissa * 10_000n;
  let scaled: bigint;
  if (exponent >= 0) {
    scaled = numerator << BigInt(exponent);
  } else {
    const denominator = 1n << BigInt(-exponent);
    const quotient = numerator / denominator;
    const twiceRemainder = (numerator % denominator) * 2n;
    const roundUp = twiceRemainder > denominator || (twiceRemainder === denominator && (quotient & 1n) === 1n);
    scaled = roundUp ? quotient + 1n : quotient;
  }
  const digits = scaled.toString().padStart(5, '0');
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  return `${sign}${digits.slice(0, -4)}.${digits.slice(-4)}`;
}

/** A finite non-negative double as mantissa * 2^exponent, both exact. */
function decompose(value: number): { mantissa: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const biasedExponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  return biasedExponent === 0
    ? { mantissa: fraction, exponent: -1074 }
    : { mantissa: fraction | (1n << 52n), exponent: biasedExponent - 1075 };
}

/**
 * `{"per_query": {"<topic>": {"<measure>": value}}, "all": {"<measure>": value}}`
 * with trec_eval's printed measure names and full double precision. Written by
 * hand so topics keep their order (JavaScript objects put integer-like keys
 * such as "301" first in numeric order).
 */
export function formatTrecJson(evaluation: Evaluation, options: { perTopic: boolean; summary: boolean }): string {
  const object = (values: readonly MeasureValue[]): string =>
    `{${values.map((value) => `${JSON.stringify(value.name)}: ${JSON.stringify(value.value)}`).join(', ')}}`;
  const parts: string[] = [];
  if (options.perTopic) {
    const topics = evaluation.perTopic.map((topic) => `    ${JSON.stringify(topic.topicId)}: ${object(topic.values)}`);
    parts.push(`  "per_query": {${topics.length === 0 ? '' : `\n${topics.join(',\n')}\n  `}}`);
  }
  if (options.summary) parts.push(`  "all": ${object(evaluation.summary)}`);
  return `{\n${parts.join(',\n')}\n}\n`;
}
