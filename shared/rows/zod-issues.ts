import type { InputError } from '../schema/input-error.js';
import { MAX_GRADE } from '../schema/relevance-grade.js';
import { issuePath, issueProblem, valueAt, type ZodIssue } from '../schema/zod-issue-text.js';
import { conventionForField, type RowField } from './conventions.js';
import { describeJsonType } from '../readers/reader-event.js';
import { JUDGE_ID } from './row-schema.js';

type Issue = ZodIssue;
type PathKey = PropertyKey;

const CHUNK_LIST_FIELDS: ReadonlySet<string> = new Set(['retrieved_context', 'expected_retrieved_context']);

const ID_FIX = 'drop the field to use the content hash';

/** Fixes for a key inside a chunk, by "<canonical list field>.<key>". */
const CHUNK_KEY_FIXES: Readonly<Record<string, string>> = {
  'retrieved_context.doc_uri': `give each retrieved chunk a doc_uri string or ${ID_FIX}`,
  'retrieved_context.doc_id': `give each retrieved chunk a doc_id string or ${ID_FIX}`,
  'retrieved_context.id': `give each retrieved chunk an id string or ${ID_FIX}`,
  'retrieved_context.score': 'give score as a number, or drop it',
  'retrieved_context.rank': 'give rank as a positive integer (1 = first) on every chunk, or on none to use list order',
  'expected_retrieved_context.doc_uri': `give each expected document a doc_uri string or ${ID_FIX}`,
  'expected_retrieved_context.doc_id': `give each expected document a doc_id string or ${ID_FIX}`,
  'expected_retrieved_context.id': `give each expected document an id string or ${ID_FIX}`,
  'expected_retrieved_context.grade':
    `give grade as an integer of at most ${MAX_GRADE} (0 = not relevant, 1 or more = relevant; a larger number is most ` +
    'likely a score, a rank or an id), or drop it to mean relevant',
};

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  object: 'an object',
  record: 'an object',
  array: 'a list',
  boolean: 'a boolean',
};

/**
 * Turns one zod issue on a row into an InputError that names the field as the
 * user wrote it (`contexts[2]`, not `retrieved_context[2]`), says what was
 * expected and what was found, and how to fix it.
 */
export function issueToInputError(
  issue: Issue,
  context: { file: string; line: number; input: Record<string, unknown>; names: ReadonlyMap<RowField, string> },
): InputError {
  const [head, ...rest] = issue.path;
  const field = head as RowField;
  const displayPath = formatPath(context.names.get(field) ?? String(head), rest);
  const found = valueAt(context.input, issue.path);
  return {
    file: context.file,
    line: context.line,
    field: displayPath,
    message: describeProblem(issue, field, rest, found),
    fix: fixFor(field, rest),
  };
}

/** The shared wording (schema/zod-issue-text.ts), in a dataset's JSON words: a string, an array. */
function describeProblem(issue: Issue, field: RowField, rest: readonly PathKey[], found: unknown): string {
  if (field === 'human_verdicts' && rest.length === 1) {
    if (issue.code === 'invalid_key')
      return `the key "${String(rest[0])}" is not a judge id (lower-case letters, digits and underscores, starting with a letter)`;
    return `must be "yes", "no", true, false or a number, got ${describeVerdict(found)}`;
  }
  return issueProblem(issue, found, { expected: (expected) => expectedPhrase(expected, field, rest), found: describeFound });
}

function expectedPhrase(expected: string, field: RowField, rest: readonly PathKey[]): string {
  if (rest.length === 0) return conventionForField(field).expects;
  if (rest.length === 1 && CHUNK_LIST_FIELDS.has(field)) return 'a string or an object with doc_uri and content';
  return TYPE_NAMES[expected] ?? expected;
}

function describeFound(value: unknown): string {
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (typeof value === 'number' || typeof value === 'boolean') return `${describeJsonType(value)} (${String(value)})`;
  return describeJsonType(value);
}

/** A verdict as found: a text quoted (cut short), anything else as the other fields say it. */
function describeVerdict(value: unknown): string {
  if (typeof value !== 'string') return describeFound(value);
  const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return `a string (${JSON.stringify(shown)})`;
}

function fixFor(field: RowField, rest: readonly PathKey[]): string {
  if (field === 'human_verdicts' && rest.length === 1) {
    return typeof rest[0] === 'string' && !JUDGE_ID.test(rest[0])
      ? "key each verdict by the id of its judge, as `assay judges` and the config name it (correctness, groundedness, a custom judge's id)"
      : 'give "yes" or "no" (true or false) for a yes/no judge, a number on the scale of a graded one, or leave the judge out';
  }
  const [index, key] = rest;
  if (CHUNK_LIST_FIELDS.has(field) && typeof index === 'number') {
    if (typeof key === 'string') return CHUNK_KEY_FIXES[`${field}.${key}`] ?? `give ${key} as the type shown, or drop it`;
    return 'give each entry as a text or as an object {"doc_uri": "...", "content": "..."}';
  }
  return conventionForField(field).fix;
}

/** `contexts[2].doc_uri` */
export function formatPath(head: string, rest: readonly PathKey[]): string {
  return issuePath([head, ...rest]);
}
