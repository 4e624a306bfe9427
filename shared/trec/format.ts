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
  const text =
    typeof value.value === 'string'
      ? value.value
      : value.integer
        ? String(Math.trunc(value.value))
        : formatFixed4(value.value);
  return `${value.name.padEnd(22)}\t${topicId}\t${text}`;
}

/**
 * C's `printf("%6.4f")`: four decimals, right-aligned in six characters.
 * JavaScript's toFixed rounds exact ties away from zero where glibc rounds them
 * to even; at four decimals a double is an exact tie only when it is an odd
 * multiple of 1/32 (x * 10^4 ends in .5 exactly), so those get half-to-even.
 */
export function formatFixed4(value: number): string {
  if (!Number.isFinite(value)) return (Number.isNaN(value) ? '-nan' : value > 0 ? 'inf' : '-inf').padStart(6);
  const thirtySeconds = Math.abs(value) * 32;
  let text: string;
  if (Number.isInteger(thirtySeconds) && thirtySeconds % 2 === 1) {
    const scaled = Math.abs(value) * 10_000; // exact: an odd multiple of 312.5
    const lower = Math.floor(scaled);
    const even = lower % 2 === 0 ? lower : lower + 1;
    const digits = String(even).padStart(5, '0');
    text = `${value < 0 ? '-' : ''}${digits.slice(0, -4)}.${digits.slice(-4)}`;
  } else {
    text = value.toFixed(4);
  }
  return text.padStart(6);
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
