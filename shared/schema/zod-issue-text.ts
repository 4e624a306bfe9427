import type { z } from 'zod';

/**
 * The one wording of a zod issue in assay's input errors, for the config
 * file and the dataset readers alike: `is missing`, `expected a number >= 1,
 * got number 0`, `must not be empty`. Each input names types in its own
 * words (a config file speaks of a text and a list, as YAML users do; a
 * dataset row of a string and an array, as JSON does), given as IssueWords.
 */
export type ZodIssue = z.core.$ZodIssue;

export interface IssueWords {
  /** How an expected type reads, e.g. `a whole number`; `expected` is zod's name of it (`int`, `string`). */
  expected(expected: string): string;
  /** How a value that was found reads, e.g. `a list` or `number 0`. */
  found(value: unknown): string;
}

/** What is wrong with the value `found` at the issue's path, in the input's words. */
export function issueProblem(issue: ZodIssue, found: unknown, words: IssueWords): string {
  switch (issue.code) {
    case 'invalid_type':
      return found === undefined ? 'is missing' : `expected ${words.expected(issue.expected)}, got ${words.found(found)}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map(String).join(', ')}, got ${words.found(found)}`;
    case 'too_small':
      if (issue.origin === 'array' && Number(issue.minimum) > 1)
        return `expected at least ${String(issue.minimum)} entries, got ${Array.isArray(found) ? found.length : 0}`;
      return issue.origin === 'string' || issue.origin === 'array'
        ? 'must not be empty'
        : `expected a number ${issue.inclusive ? '>=' : '>'} ${String(issue.minimum)}, got ${words.found(found)}`;
    case 'too_big':
      return `expected a number ${issue.inclusive ? '<=' : '<'} ${String(issue.maximum)}, got ${words.found(found)}`;
    case 'invalid_format':
      return issue.format === 'url'
        ? `expected an http or https URL, got ${words.found(found)}`
        : `${issue.message}, got ${words.found(found)}`;
    default:
      return issue.message;
  }
}

/** The path as a user reads it: `run.cutoffs[1]`, `contexts[2].doc_uri`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text === '' ? String(key) : `${text}.${String(key)}`),
    '',
  );
}

/** The value at a path of the input, undefined where the path leaves it. */
export function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value: unknown = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
