import type { InputError } from '../schema/input-error.js';
import { forEachLine } from './line-reader.js';
import { isBlankOrComment } from './qrels.js';

/** One topic's retrieved documents, in file order (ranking happens later). */
export interface TopicRun {
  readonly documentIds: string[];
  readonly scores: number[];
}

export interface Run {
  readonly topics: Map<string, TopicRun>;
  /** The run tag of the last line, which is what trec_eval reports as runid. */
  readonly runId: string;
}

export type RunResult = { ok: true; run: Run } | { ok: false; error: InputError };

/**
 * Reads a TREC run file: `qid iter docno rank score tag`, whitespace-separated,
 * anything after the tag ignored (as trec_eval does). The rank column is read
 * past but not used: ranking is by score (see rank-topic.ts). Blank lines and
 * lines starting with `#` are skipped. The first malformed line stops reading
 * with an error naming it.
 */
export async function readRun(path: string): Promise<RunResult> {
  const topics = new Map<string, TopicRun>();
  let runId = '';
  let error: InputError | undefined;
  let currentId = '';
  let current: TopicRun | undefined;
  const fields: string[] = [];
  await forEachLine(path, (line, lineNumber) => {
    if (error !== undefined || isBlankOrComment(line)) return;
    if (!splitLeadingFields(line, 6, fields)) {
      error = {
        file: path,
        line: lineNumber,
        message: `expected at least 6 fields "qid iter docno rank score tag", found ${fields.length}`,
        fix: 'write one retrieved document per line as: topic-id Q0 document-id rank score run-tag',
      };
      return;
    }
    const score = Number(fields[4]);
    if (Number.isNaN(score)) {
      error = {
        file: path,
        line: lineNumber,
        field: 'score',
        message: `expected a number, got "${fields[4]}"`,
        fix: 'put the retrieval score (higher is better) in the fifth column',
      };
      return;
    }
    const topicId = fields[0] as string;
    if (current === undefined || topicId !== currentId) {
      currentId = topicId;
      current = topics.get(topicId);
      if (current === undefined) {
        current = { documentIds: [], scores: [] };
        topics.set(topicId, current);
      }
    }
    current.documentIds.push(fields[2] as string);
    current.scores.push(score);
    runId = fields[5] as string;
  });
  return error === undefined ? { ok: true, run: { topics, runId } } : { ok: false, error };
}

/**
 * Fills `fields` with the first `count` whitespace-separated fields of the
 * line, without splitting the rest. Returns false when the line has fewer.
 */
function splitLeadingFields(line: string, count: number, fields: string[]): boolean {
  fields.length = 0;
  const length = line.length;
  let index = 0;
  while (fields.length < count) {
    while (index < length && isSpace(line.charCodeAt(index))) index++;
    if (index >= length) return false;
    const start = index;
    while (index < length && !isSpace(line.charCodeAt(index))) index++;
    fields.push(line.slice(start, index));
  }
  return true;
}

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}
