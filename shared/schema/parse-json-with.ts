import type { z } from 'zod';
import type { Result } from './result.js';
import { issuePath, issueProblem, valueAt, type IssueWords, type ZodIssue } from './zod-issue-text.js';

/**
 * JSON text (a stored record, a queue message) read through its schema, with
 * the one wording of what is wrong: `not valid JSON (<the parser's reason>)`,
 * or the first problem in zod-issue-text.ts's words with its field, as every
 * input error names one, and how many more there are, after what the text
 * should have been when `what` names it: `not a case message: field
 * "case.engines.bm25.retrieved_context[0].rank": is missing (and 2 more
 * problems)`. The caller adds where the text was.
 */
export function parseJsonWith<Schema extends z.ZodType>(
  schema: Schema,
  text: string | Uint8Array,
  what?: string,
): Result<z.output<Schema>> {
  let json: unknown;
  try {
    json = JSON.parse(typeof text === 'string' ? text : new TextDecoder().decode(text));
  } catch (error) {
    return { ok: false, error: `not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const problem = describeJsonIssues(parsed.error.issues, json);
  return { ok: false, error: what === undefined ? problem : `not ${what}: ${problem}` };
}

/**
 * parseJsonWith for a record a step cannot go on without (a run's manifest,
 * its case ids, a stored result): its value, or an Error naming `where` (the
 * record's key) with the same wording, such as `runs/r-1/case-ids.json: not
 * valid JSON (...)`.
 */
export function readJsonWith<Schema extends z.ZodType>(schema: Schema, text: string | Uint8Array, where: string): z.output<Schema> {
  const parsed = parseJsonWith(schema, text);
  if (!parsed.ok) throw new Error(`${where}: ${parsed.error}`);
  return parsed.value;
}

/** The first of zod's issues on a JSON value, with its field, in JSON's words, and how many more there are. */
export function describeJsonIssues(issues: readonly ZodIssue[], input: unknown): string {
  const problems = issues.flatMap((issue) => plainIssues(issue, [], input));
  const [first] = problems;
  if (first === undefined) return 'does not match the expected shape';
  const path = issuePath(first.path);
  const text = `${path === '' ? '' : `field "${path}": `}${issueProblem(first.issue, valueAt(input, first.path), JSON_WORDS)}`;
  const more = problems.length - 1;
  return more === 0 ? text : `${text} (and ${more} more ${more === 1 ? 'problem' : 'problems'})`;
}

/** Types as JSON names them. */
const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  record: 'an object',
  array: 'an array',
  null: 'null',
  // A field one option of a union must not have (a case message's case_key beside its case).
  undefined: 'no value',
};

const JSON_WORDS: IssueWords = {
  expected: (expected) => TYPE_NAMES[expected] ?? expected,
  found: describeFound,
};

/** A found value as JSON names it: a short string quoted, a number or boolean with its value, anything else by its type. */
function describeFound(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length <= 40 ? JSON.stringify(value) : 'a string';
  if (typeof value === 'number' || typeof value === 'boolean')
    return `${typeof value === 'number' ? 'a number' : 'a boolean'} (${String(value)})`;
  return typeof value === 'object' ? 'an object' : typeof value;
}

interface PlainIssue {
  readonly issue: ZodIssue;
  /** From the root of the input (a union's issues are relative to the union). */
  readonly path: readonly PropertyKey[];
}

/**
 * A union's issue as the problems of the option the input came nearest to:
 * the problems every option has (wrong whichever was meant); else those of the
 * one option with the fewest of its own fields missing or present where it has
 * none (the signs the input is of another option), then the fewest problems;
 * when options tie, the union's own message (which a schema sets to say what
 * its options are).
 */
function plainIssues(issue: ZodIssue, base: readonly PropertyKey[], input: unknown): PlainIssue[] {
  const path = [...base, ...issue.path];
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [{ issue, path }];
  const options = issue.errors.map((errors) => errors.flatMap((nested) => plainIssues(nested, path, input)));
  const [firstOption = [], ...otherOptions] = options;
  const common = firstOption.filter((problem) => otherOptions.every((option) => option.some((other) => sameProblem(problem, other))));
  if (common.length > 0) return common;
  // How far the input is from each option: its own fields missing or present where it has none, then all its problems.
  const distances = options.map(
    (option) =>
      [
        option.filter((problem) => problem.path.length === path.length + 1 && isPresenceProblem(problem, input)).length,
        option.length,
      ] as const,
  );
  const nearest = distances.reduce(
    (best, distance, index) => (compareDistances(distance, distances[best] as Distance) < 0 ? index : best),
    0,
  );
  const tied = distances.some((distance, index) => index !== nearest && compareDistances(distance, distances[nearest] as Distance) === 0);
  const chosen = options[nearest] ?? [];
  return tied || chosen.length === 0 ? [{ issue, path }] : chosen;
}

type Distance = readonly [presence: number, problems: number];

function compareDistances(left: Distance, right: Distance): number {
  return left[0] - right[0] || left[1] - right[1];
}

/** A field missing where the option needs it, or present where the option has none. */
function isPresenceProblem(problem: PlainIssue, input: unknown): boolean {
  return problem.issue.code === 'invalid_type' && (problem.issue.expected === 'undefined' || valueAt(input, problem.path) === undefined);
}

function sameProblem(left: PlainIssue, right: PlainIssue): boolean {
  return (
    left.issue.code === right.issue.code && left.issue.message === right.issue.message && issuePath(left.path) === issuePath(right.path)
  );
}
