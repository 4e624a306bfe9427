import type { z } from 'zod';
import type { Result } from '../schema/result.js';

/**
 * Reading a judge's answer. Models wrap JSON in code fences, put prose around
 * it, answer "YES\n" or "Yes." where "yes" was asked, or write numbers as
 * strings. None of that should fail a verdict, and none of it should pass one
 * by default: the answer must still match the judge's schema after these
 * narrow repairs, or it is an error.
 */

export type ParsedAnswer<T> = Result<T>;

/**
 * Parses a raw answer text into JSON: the whole text, a fenced block, or the
 * first balanced object in it. Two encodings gateways and serving stacks add
 * are undone: the JSON encoded once more as a JSON string (`"{\"rating\": ...}"`,
 * read as the object it holds), and, when nothing else parses, the JSON with
 * every quote escaped (`{\"rating\": \"yes\"}`, read with its quotes
 * unescaped). Each would otherwise cost a repair request, paid for.
 */
export function extractJson(text: string): ParsedAnswer<unknown> {
  const read = firstJson(text) ?? (text.includes('\\"') ? firstJson(text.replaceAll('\\"', '"')) : undefined);
  if (read !== undefined) return { ok: true, value: read.value };
  const preview = text.length > 120 ? `${text.slice(0, 120)}...` : text;
  return { ok: false, error: `the answer holds no JSON object: ${JSON.stringify(preview)}` };
}

/** The first reading of the text that parses; a JSON string that holds a JSON object is read as that object. */
function firstJson(text: string): { value: unknown } | undefined {
  const read = firstParsed(text, () => true);
  if (read === undefined || typeof read.value !== 'string') return read;
  return firstParsed(read.value, (value) => typeof value === 'object' && value !== null) ?? read;
}

/** The first reading of the text (candidatesOf) that parses to a value `accepts` takes. */
function firstParsed(text: string, accepts: (value: unknown) => boolean): { value: unknown } | undefined {
  for (const candidate of candidatesOf(text)) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (accepts(value)) return { value };
    } catch {
      // try the next reading of the text
    }
  }
  return undefined;
}

/**
 * Validates a parsed answer against the judge's schema. Where validation fails,
 * yes/no answers with other case, spacing or punctuation ("YES\n", "Yes.",
 * true) and numbers written as text ("3") are normalised at the failing
 * places only, and the answer is validated again.
 */
export function parseAnswer<T>(value: unknown, schema: z.ZodType<T>): ParsedAnswer<T> {
  let current = value;
  for (let round = 0; round < 3; round++) {
    const result = schema.safeParse(current);
    if (result.success) return { ok: true, value: result.data };
    const repaired = structuredClone(current);
    let changed = false;
    for (const issue of result.error.issues) changed = normaliseAt(repaired, issue.path) || changed;
    if (!changed) return { ok: false, error: describeIssues(result.error.issues) };
    current = repaired;
  }
  const last = schema.safeParse(current);
  return last.success ? { ok: true, value: last.data } : { ok: false, error: describeIssues(last.error.issues) };
}

function normaliseAt(root: unknown, path: readonly PropertyKey[]): boolean {
  if (path.length === 0) return false;
  let parent = root as Record<PropertyKey, unknown>;
  for (const key of path.slice(0, -1)) {
    if (parent === null || typeof parent !== 'object') return false;
    parent = parent[key] as Record<PropertyKey, unknown>;
  }
  if (parent === null || typeof parent !== 'object') return false;
  const key = path[path.length - 1] as PropertyKey;
  const normalised = normaliseValue(parent[key]);
  if (normalised === undefined) return false;
  parent[key] = normalised;
  return true;
}

function normaliseValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value !== 'string') return undefined;
  const word = value
    .trim()
    .toLowerCase()
    .replace(/^["'`]+|["'`.!]+$/g, '');
  if (word !== value && (word === 'yes' || word === 'no')) return word;
  if (word === 'true') return 'yes';
  if (word === 'false') return 'no';
  if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) return Number(word);
  return undefined;
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'answer'}: ${issue.message}`)
    .join('; ');
}

/** The readings of the text, tried in turn: the later ones are only looked for when the whole text is no JSON. */
function* candidatesOf(text: string): Iterable<string> {
  yield text.trim();
  yield* fencedBlocks(text);
  yield* balancedObjects(text);
}

function fencedBlocks(text: string): string[] {
  return [...text.matchAll(/```(?:json|JSON)?\s*\n?([\s\S]*?)```/g)].map((match) => (match[1] ?? '').trim());
}

/** Every top-level `{...}` of the text, found by bracket depth outside strings. */
function balancedObjects(text: string): string[] {
  const objects: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (inString) {
      if (escaped) escaped = false;
      else if (character === '\\') escaped = true;
      else if (character === '"') inString = false;
      continue;
    }
    if (character === '"' && depth > 0) inString = true;
    else if (character === '{') {
      if (depth === 0) start = index;
      depth++;
    } else if (character === '}' && depth > 0) {
      depth--;
      if (depth === 0) objects.push(text.slice(start, index + 1));
    }
  }
  return objects;
}
