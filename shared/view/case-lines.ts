import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { FileProblem } from '../schema/file-problem.js';
import { parseJsonWith } from '../schema/parse-json-with.js';
import type { Failed, Result } from '../schema/result.js';
import { caseLineSchema, type CaseLine } from '../schema/report.js';
import type { MetricValue } from '../schema/metric-value.js';

/** A page of a run's cases.jsonl: its lines from `offset`, and where the next page starts (null at the end). */
export interface CasePage {
  readonly offset: number;
  readonly lines: CaseLine[];
  readonly next_offset: number | null;
}

/** Lines of a cases.jsonl file read, or the first that does not parse, by its 1-based number. */
export type LinesRead<Value> = Result<Value, Required<FileProblem>>;

/**
 * Lines `offset` to `offset + limit - 1` (0-based, blank lines not counted)
 * of a cases.jsonl file, read as a stream that stops after the page: a page
 * costs the lines before it, never the whole file in memory.
 */
export async function readCasePage(path: string, offset: number, limit: number): Promise<LinesRead<CasePage>> {
  const lines: CaseLine[] = [];
  let index = 0;
  let more = false;
  const read = await eachLine(path, (text, number) => {
    if (index < offset) {
      index++;
      return 'next';
    }
    if (lines.length === limit) {
      more = true;
      return 'stop';
    }
    const parsed = parseLine(text, number);
    if (!parsed.ok) return parsed;
    lines.push(parsed.value);
    index++;
    return 'next';
  });
  if (!read.ok) return read;
  return { ok: true, value: { offset, lines, next_offset: more ? offset + lines.length : null } };
}

/** One engine's value of one metric on every request of a cases.jsonl file (yes/no ratings as 1/0, as `assay compare` reads them). */
export async function metricValues(path: string, engine: string, metric: string): Promise<LinesRead<Map<string, number>>> {
  const values = new Map<string, number>();
  const read = await eachLine(path, (text, number) => {
    const parsed = parseLine(text, number);
    if (!parsed.ok) return parsed;
    if (parsed.value.engine !== engine) return 'next';
    const value = numeric(Object.hasOwn(parsed.value.metrics, metric) ? parsed.value.metrics[metric] : undefined);
    if (value !== undefined) values.set(parsed.value.request_id, value);
    return 'next';
  });
  return read.ok ? { ok: true, value: values } : read;
}

/** The lines of one engine for the given requests, by request id. */
export async function linesOf(path: string, engine: string, requestIds: ReadonlySet<string>): Promise<LinesRead<Map<string, CaseLine>>> {
  const lines = new Map<string, CaseLine>();
  const read = await eachLine(path, (text, number) => {
    const parsed = parseLine(text, number);
    if (!parsed.ok) return parsed;
    if (parsed.value.engine === engine && requestIds.has(parsed.value.request_id)) lines.set(parsed.value.request_id, parsed.value);
    return lines.size === requestIds.size ? 'stop' : 'next';
  });
  return read.ok ? { ok: true, value: lines } : read;
}

function numeric(value: MetricValue | undefined): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (value === 'yes') return 1;
  if (value === 'no') return 0;
  return undefined;
}

function parseLine(text: string, number: number): LinesRead<CaseLine> {
  const parsed = parseJsonWith(caseLineSchema, text);
  return parsed.ok ? parsed : { ok: false, error: { line: number, message: parsed.error } };
}

/** Calls `visit` with each non-blank line and its 1-based number until it says stop or fails; leaving the loop closes the file. */
async function eachLine(
  path: string,
  visit: (text: string, number: number) => 'next' | 'stop' | Failed<Required<FileProblem>>,
): Promise<LinesRead<undefined>> {
  let number = 0;
  for await (const text of createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY })) {
    number++;
    if (text.trim() === '') continue;
    const outcome = visit(text, number);
    if (outcome === 'stop') break;
    if (outcome !== 'next') return outcome;
  }
  return { ok: true, value: undefined };
}
