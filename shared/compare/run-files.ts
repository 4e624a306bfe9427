import type { z } from 'zod';
import { caseLineSchema, reportSchema, type CaseLine, type Report } from '../schema/report.js';

/** A file's content as values, or why it is not valid: `line` is 1-based, absent when the problem is the file as a whole. */
export type ParsedFile<Value> = { ok: true; value: Value } | { ok: false; line?: number; message: string };

/** report.json's text -> the report, checked against `reportSchema`. */
export function parseReportJson(text: string): ParsedFile<Report> {
  const json = parseJson(text);
  if (!json.ok) return json;
  const parsed = reportSchema.safeParse(json.value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, message: describeIssues(parsed.error.issues) };
}

/**
 * cases.jsonl's text -> its lines, each checked against `caseLineSchema`.
 * Blank lines are skipped. The first bad line is reported with its number:
 * invalid JSON, a line that does not fit the schema, or a second line for
 * the same engine and request_id (pairs would be ambiguous).
 */
export function parseCasesJsonl(text: string): ParsedFile<CaseLine[]> {
  const lines: CaseLine[] = [];
  const firstLineOf = new Map<string, number>();
  const rows = text.split('\n');
  for (const [index, row] of rows.entries()) {
    if (row.trim() === '') continue;
    const line = index + 1;
    const json = parseJson(row);
    if (!json.ok) return { ok: false, line, message: json.message };
    const parsed = caseLineSchema.safeParse(json.value);
    if (!parsed.success) return { ok: false, line, message: describeIssues(parsed.error.issues) };
    // JSON text of the pair: no separator character can make two different pairs collide.
    const key = JSON.stringify([parsed.data.engine, parsed.data.request_id]);
    const earlier = firstLineOf.get(key);
    if (earlier !== undefined) {
      return { ok: false, line, message: `engine "${parsed.data.engine}" already has request_id "${parsed.data.request_id}" on line ${earlier}` };
    }
    firstLineOf.set(key, line);
    lines.push(parsed.data);
  }
  return { ok: true, value: lines };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** The first problem zod found, with its field, and how many more there are. */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const [first] = issues;
  if (first === undefined) return 'does not match the expected shape';
  const field = first.path.length === 0 ? '' : `field "${first.path.map(String).join('.')}": `;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more ${issues.length === 2 ? 'problem' : 'problems'})` : '';
  return `${field}${first.message}${more}`;
}
