import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { FileProblem } from '../schema/file-problem.js';
import { parseJsonWith } from '../schema/parse-json-with.js';
import { caseLineSchema, reportSchema, type CaseLine, type Report } from '../schema/report.js';
import type { Failed, Result } from '../schema/result.js';

/** A file's content as values, or why it is not valid. */
export type ParsedFile<Value> = Result<Value, FileProblem>;

/** report.json's text -> the report, checked against `reportSchema`. */
export function parseReportJson(text: string): ParsedFile<Report> {
  const parsed = parseJsonWith(reportSchema, text);
  return parsed.ok ? parsed : { ok: false, error: { message: parsed.error } };
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
  const add = (row: string, line: number): Failed<FileProblem> | undefined => {
    if (row.trim() === '') return undefined;
    const parsed = parseJsonWith(caseLineSchema, row);
    if (!parsed.ok) return { ok: false, error: { line, message: parsed.error } };
    // JSON text of the pair: no separator character can make two different pairs collide.
    const key = JSON.stringify([parsed.value.engine, parsed.value.request_id]);
    const earlier = firstLineOf.get(key);
    if (earlier !== undefined) {
      return {
        ok: false,
        error: { line, message: `engine "${parsed.value.engine}" already has request_id "${parsed.value.request_id}" on line ${earlier}` },
      };
    }
    firstLineOf.set(key, line);
    const { case_id, request_id, engine } = parsed.value;
    lines.push(
      metrics === undefined
        ? parsed.value
        : {
            case_id,
            request_id,
            engine,
            metrics: Object.fromEntries(Object.entries(parsed.value.metrics).filter(([name]) => metrics.has(name))),
          },
    );
    return undefined;
  };
  return { lines, add };
}
