import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
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
  const reader = caseLinesReader();
  for (const [index, row] of text.split('\n').entries()) {
    const failed = reader.add(row, index + 1);
    if (failed !== undefined) return failed;
  }
  return { ok: true, value: reader.lines };
}

/**
 * A cases.jsonl file read as a stream, checked as `parseCasesJsonl` checks
 * its text, each line keeping only the given metrics (a comparison needs no
 * more, and a large run's whole lines would not fit in memory).
 */
export async function readCaseLinesFile(path: string, metrics: ReadonlySet<string>): Promise<ParsedFile<CaseLine[]>> {
  const reader = caseLinesReader(metrics);
  let number = 0;
  for await (const row of createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY })) {
    number++;
    const failed = reader.add(row, number);
    if (failed !== undefined) return failed;
  }
  return { ok: true, value: reader.lines };
}

function caseLinesReader(metrics?: ReadonlySet<string>) {
  const lines: CaseLine[] = [];
  const firstLineOf = new Map<string, number>();
  const add = (row: string, line: number): { ok: false; line: number; message: string } | undefined => {
    if (row.trim() === '') return undefined;
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
    const { case_id, request_id, engine } = parsed.data;
    lines.push(metrics === undefined ? parsed.data : { case_id, request_id, engine, metrics: Object.fromEntries(Object.entries(parsed.data.metrics).filter(([name]) => metrics.has(name))) });
    return undefined;
  };
  return { lines, add };
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
