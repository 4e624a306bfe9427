import { z } from 'zod';
import type { EngineHit } from './engine.js';

/**
 * One hit as an engine answered it (after the `results` mapping, a row of
 * SQL, an OpenSearch hit), checked field by field with a message that says
 * what is wrong. Every check is linear in the field's length and the long
 * fields are bounded first: an answer is outside input, and a hostile or
 * broken engine must not hold the worker past its deadline.
 */

/** A score is a number; longer numeric text is not a score. */
export const MAX_SCORE_TEXT = 64;
/** A document id; a longer one is nearly always the content mapped to doc_uri by mistake. */
export const MAX_DOC_URI = 4096;

/** A score may arrive as a number or as numeric text (Postgres `numeric`, some JSON APIs). */
export const scoreSchema = z.unknown().transform((value, context) => {
  const score = scoreOf(value);
  if (typeof score === 'number') return score;
  context.addIssue({ code: 'custom', message: score.problem });
  return z.NEVER;
});

/** An id may be a number (database keys): kept as its digits while a JSON number holds them exactly. */
export const docUriSchema = z.unknown().transform((value, context) => {
  const id = docUriOf(value);
  if (typeof id === 'string') return id;
  context.addIssue({ code: 'custom', message: id.problem });
  return z.NEVER;
});

/** One mapped hit; null means absent, as JSON APIs often write it. */
export const hitSchema = z.object({
  doc_uri: docUriSchema,
  content: z.string().nullish(),
  score: scoreSchema.nullish(),
});

type Problem = { readonly problem: string };

function scoreOf(value: unknown): number | Problem {
  if (typeof value === 'number') return Number.isFinite(value) ? value : { problem: `${value} is not a finite number` };
  if (typeof value !== 'string') return { problem: 'expected a number' };
  if (value.length > MAX_SCORE_TEXT)
    return { problem: `a text of ${value.length} characters, expected a number of at most ${MAX_SCORE_TEXT}` };
  const text = value.trim();
  const score = isDecimalText(text) ? Number(text) : Number.NaN;
  return Number.isFinite(score) ? score : { problem: `expected a number, got the text "${text}"` };
}

function docUriOf(value: unknown): string | Problem {
  if (typeof value === 'string') {
    if (value.length === 0) return { problem: 'expected a non-empty text or a number' };
    if (value.length > MAX_DOC_URI)
      return {
        problem: `a text of ${value.length} characters, expected a document id of at most ${MAX_DOC_URI} (check that results maps doc_uri to an id, not to the content)`,
      };
    return value;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) return { problem: 'expected a non-empty text or a number' };
  // Node 20's JSON.parse gives no access to a number's source text, so digits past 2^53 are already lost here.
  if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
    return {
      problem: `the number ${String(value)} is above 2^53, so JSON may have changed its digits; expected ids above ${Number.MAX_SAFE_INTEGER} as text (fix: have the engine return doc_uri as a string)`,
    };
  }
  return String(value);
}

/**
 * `[-+]? digits [. digits] [(e|E) [-+]? digits]` with at least one mantissa
 * digit, read in one pass: a regex with the same meaning backtracks on long
 * runs of digits followed by something else.
 */
export function isDecimalText(text: string): boolean {
  let index = 0;
  const digitsFrom = (start: number): number => {
    let end = start;
    while (end < text.length && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end += 1;
    return end;
  };
  if (text[index] === '+' || text[index] === '-') index += 1;
  const integerEnd = digitsFrom(index);
  let mantissaDigits = integerEnd - index;
  index = integerEnd;
  if (text[index] === '.') {
    const fractionEnd = digitsFrom(index + 1);
    mantissaDigits += fractionEnd - index - 1;
    index = fractionEnd;
  }
  if (mantissaDigits === 0) return false;
  if (text[index] === 'e' || text[index] === 'E') {
    index += 1;
    if (text[index] === '+' || text[index] === '-') index += 1;
    const exponentEnd = digitsFrom(index);
    if (exponentEnd === index) return false;
    index = exponentEnd;
  }
  return index === text.length;
}

/** Drops the nulls a parsed hit may carry, so absent fields stay absent. */
export function hitFrom(parsed: z.infer<typeof hitSchema>): EngineHit {
  return {
    doc_uri: parsed.doc_uri,
    ...(parsed.content === null || parsed.content === undefined ? {} : { content: parsed.content }),
    ...(parsed.score === null || parsed.score === undefined ? {} : { score: parsed.score }),
  };
}

/** `item 2: doc_uri: expected a non-empty text or a number`, naming the first problem of a list of hits. */
export function describeHitProblem(error: z.ZodError): string {
  const [issue] = error.issues;
  if (issue === undefined) return 'not a list of hits';
  const [index, field] = issue.path;
  const where = typeof index === 'number' ? `item ${index + 1}` : 'the list';
  const what = field === undefined ? '' : `${String(field)}: `;
  // The field checks above word their own problem; zod's type errors get one line per field.
  if (issue.code === 'custom') return `${where}: ${what}${issue.message}`;
  const expected = field === 'content' ? 'expected a text' : 'expected an object {doc_uri, content?, score?}';
  return `${where}: ${what}${expected}`;
}
