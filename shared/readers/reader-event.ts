import type { InputError } from '../schema/input-error.js';

/** One row of a dataset file as written, before any convention is applied. */
export interface SourceRow<Value = unknown> {
  /** 1-based line where the row starts. */
  line: number;
  fields: Record<string, Value>;
}

/**
 * What a file reader produces. A `bad-row` is a row that could not be read, with
 * one error per problem found (it still counts as one row of the file); a `file-error` is a problem with the file
 * as a whole (empty, truncated, not an array), which is not a row.
 */
export type ReaderEvent<Value = unknown> =
  | { kind: 'row'; row: SourceRow<Value> }
  | { kind: 'bad-row'; errors: readonly InputError[] }
  | { kind: 'file-error'; error: InputError };

/** Names the JSON type of a value the way an error message should ("a number", "an array"). */
export function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
