import { z } from 'zod';
import type { Result } from '../schema/result.js';
import { issuePath, valueAt, type ZodIssue } from '../schema/zod-issue-text.js';
import type { ViewRefusal } from './found.js';
import { limitSchema, nameSchema, offsetSchema, runIdSchema, suiteNameSchema } from './route-params.js';

/** What a request asks for, its parameters checked. */
export type Route =
  | { readonly kind: 'suites-page' }
  | { readonly kind: 'suite-page'; readonly suite: string; readonly charted: number }
  | { readonly kind: 'run-page'; readonly runId: string }
  | { readonly kind: 'cases-page'; readonly runId: string; readonly offset: number; readonly limit: number }
  | {
      readonly kind: 'compare-page';
      readonly a?: string;
      readonly b?: string;
      readonly engine?: string;
      readonly metric?: string;
      readonly offset: number;
      readonly limit: number;
    }
  | { readonly kind: 'suites-api' }
  | { readonly kind: 'history-api'; readonly suite: string }
  | { readonly kind: 'report-api'; readonly runId: string }
  | { readonly kind: 'cases-api'; readonly runId: string; readonly offset: number; readonly limit: number }
  | { readonly kind: 'compare-api'; readonly a: string; readonly b: string }
  | {
      readonly kind: 'query-changes-api';
      readonly a: string;
      readonly b: string;
      readonly engine: string;
      readonly metric: string;
      readonly offset: number;
      readonly limit: number;
    };

export type ParsedRoute = Result<Route, ViewRefusal<400 | 404 | 405>>;

const casesQuery = z.object({ offset: offsetSchema, limit: limitSchema(100, 1000) });
const suiteQuery = z.object({ runs: limitSchema(100, 100_000, 'runs') });
const comparePageQuery = z.object({
  a: runIdSchema.optional(),
  b: runIdSchema.optional(),
  engine: nameSchema.optional(),
  metric: nameSchema.optional(),
  offset: offsetSchema,
  limit: limitSchema(50, 500),
});
const compareQuery = z.object({ a: runIdSchema, b: runIdSchema });
const queryChangesQuery = compareQuery.extend({
  engine: nameSchema,
  metric: nameSchema,
  offset: offsetSchema,
  limit: limitSchema(50, 1000),
});

/**
 * A request's method and target (`/runs/r-…?offset=10`) → the route, from a
 * fixed set. The target is read as sent, never resolved as a URL would be
 * (which removes `..` segments and turns `\` into `/` before anyone sees
 * them): it must be a path from `/`, without a backslash or a fragment; the
 * path is split into segments, each decoded, and a `.` or `..` segment,
 * written or percent-encoded, is refused; each segment is then checked by
 * its rule (route-params.ts), and the query by a schema per route. Anything
 * else is a 4xx with the reason: an unknown path 404, a method other than
 * GET or HEAD 405, a bad target, segment or query value 400.
 */
export function parseRoute(method: string, target: string): ParsedRoute {
  if (method !== 'GET' && method !== 'HEAD') return refused(405, `${method} is not served here; only GET and HEAD`);
  const queryAt = target.indexOf('?');
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  const rawQuery = queryAt === -1 ? '' : target.slice(queryAt + 1);
  if (!path.startsWith('/')) return refused(400, 'the request target is not a path from "/"');
  if (path.includes('\\')) return refused(400, "the path has a backslash; the view's paths have none");
  if (target.includes('#')) return refused(400, 'the request target has a fragment ("#"), which a request never carries');
  const segments = decodeSegments(path);
  if (segments === undefined) return refused(400, 'the path has a broken percent-encoding');
  if (segments.some((segment) => segment === '.' || segment === '..'))
    return refused(400, 'the path has a "." or ".." segment; the view\'s paths have none');
  const query = queryOf(new URLSearchParams(rawQuery));
  if (!query.ok) return query;
  const values = query.value;
  const [first, second, third, fourth, ...rest] = segments;
  if (rest.length > 0) return notFound(path);
  if (first === undefined) return { ok: true, value: { kind: 'suites-page' } };
  if (first === 'suites' && second !== undefined && third === undefined) {
    return checked(
      [
        [suiteNameSchema, second],
        [suiteQuery, values],
      ] as const,
      ([suite, { runs }]) => ({ kind: 'suite-page', suite, charted: runs }),
    );
  }
  if (first === 'runs' && second !== undefined && third === undefined)
    return checked([[runIdSchema, second]] as const, ([runId]) => ({ kind: 'run-page', runId }));
  if (first === 'runs' && second !== undefined && third === 'cases' && fourth === undefined) {
    return checked(
      [
        [runIdSchema, second],
        [casesQuery, values],
      ] as const,
      ([runId, { offset, limit }]) => ({ kind: 'cases-page', runId, offset, limit }),
    );
  }
  if (first === 'compare' && second === undefined)
    return checked([[comparePageQuery, values]] as const, ([page]) => ({ kind: 'compare-page', ...page }));
  if (first === 'api') return apiRoute([second, third, fourth], values, path);
  return notFound(path);
}

function apiRoute([second, third, fourth]: (string | undefined)[], values: Record<string, string>, path: string): ParsedRoute {
  if (second === 'suites' && third === undefined) return { ok: true, value: { kind: 'suites-api' } };
  if (second === 'suites' && third !== undefined && fourth === 'history')
    return checked([[suiteNameSchema, third]] as const, ([suite]) => ({ kind: 'history-api', suite }));
  if (second === 'runs' && third !== undefined && fourth === 'report')
    return checked([[runIdSchema, third]] as const, ([runId]) => ({ kind: 'report-api', runId }));
  if (second === 'runs' && third !== undefined && fourth === 'cases') {
    return checked(
      [
        [runIdSchema, third],
        [casesQuery, values],
      ] as const,
      ([runId, { offset, limit }]) => ({ kind: 'cases-api', runId, offset, limit }),
    );
  }
  if (second === 'compare' && third === undefined)
    return checked([[compareQuery, values]] as const, ([{ a, b }]) => ({ kind: 'compare-api', a, b }));
  if (second === 'compare' && third === 'queries' && fourth === undefined)
    return checked([[queryChangesQuery, values]] as const, ([query]) => ({ kind: 'query-changes-api', ...query }));
  return notFound(path);
}

type Checks = readonly (readonly [z.ZodType, unknown])[];
type Checked<Items extends Checks> = {
  -readonly [Index in keyof Items]: Items[Index] extends readonly [infer Schema extends z.ZodType, unknown] ? z.output<Schema> : never;
};

/** Each value through its schema; the first that fails gives a 400 naming the problem (problemOf). */
function checked<Items extends Checks>(items: Items, build: (values: Checked<Items>) => Route): ParsedRoute {
  const values: unknown[] = [];
  for (const [schema, value] of items) {
    const parsed = schema.safeParse(value);
    if (!parsed.success) return refused(400, problemOf(parsed.error.issues, value));
    values.push(parsed.data);
  }
  return { ok: true, value: build(values as Checked<Items>) };
}

/**
 * A request value's first problem, its parameter named as zod-issue-text.ts
 * writes a path: the rule's own sentence (route-params.ts gives every rule
 * one, naming the parameter), or `is missing` for a parameter not given.
 */
function problemOf(issues: readonly ZodIssue[], value: unknown): string {
  const [issue] = issues;
  if (issue === undefined) return 'not a valid value';
  const path = issuePath(issue.path);
  const problem = issue.code === 'invalid_type' && valueAt(value, issue.path) === undefined ? 'is missing' : issue.message;
  return path === '' ? problem : `${path}: ${problem}`;
}

/** The path's segments, percent-decoded; an empty path is none. Undefined when a segment's encoding is broken. */
function decodeSegments(pathname: string): string[] | undefined {
  const parts = pathname === '/' ? [] : pathname.slice(1).split('/');
  try {
    return parts.map((part) => decodeURIComponent(part));
  } catch {
    return undefined;
  }
}

/** The query as one value per name; a name given twice is refused rather than guessed at. */
function queryOf(parameters: URLSearchParams): Result<Record<string, string>, ViewRefusal<400>> {
  const values: Record<string, string> = {};
  for (const [name, value] of parameters) {
    if (Object.hasOwn(values, name)) return { ok: false, error: { status: 400, message: `the query parameter "${name}" is given twice` } };
    Object.defineProperty(values, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return { ok: true, value: values };
}

function notFound(path: string): ParsedRoute {
  return refused(404, `nothing is served at ${path}`);
}

function refused(status: 400 | 404 | 405, message: string): ParsedRoute {
  return { ok: false, error: { status, message } };
}
