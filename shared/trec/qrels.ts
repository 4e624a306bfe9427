import type { InputError } from '../schema/input-error.js';
import { forEachLine, splitFields } from './line-reader.js';

/** The judgments of one topic: doc id -> grade, and how many docs have each grade >= 0. */
export interface TopicJudgments {
  readonly grades: Map<string, number>;
  /** gradeCounts[g] = judged documents with grade g; negative grades are not counted. */
  readonly gradeCounts: number[];
}

/** Judgments by topic id. */
export type Qrels = Map<string, TopicJudgments>;

export type QrelsResult = { ok: true; qrels: Qrels } | { ok: false; error: InputError };

/**
 * Reads a TREC qrels file: one judgment a line, `qid iter docno grade`,
 * whitespace-separated, exactly four fields (the iter column is ignored).
 * Blank lines and lines starting with `#` are skipped. The grade is an
 * integer; a negative grade marks a document judged but to be ignored, as in
 * trec_eval. The first malformed line, or a docno judged twice for one topic,
 * stops reading with an error naming the line.
 */
export async function readQrels(path: string): Promise<QrelsResult> {
  const qrels: Qrels = new Map();
  let error: InputError | undefined;
  let currentId = '';
  let current: TopicJudgments | undefined;
  await forEachLine(path, (line, lineNumber) => {
    if (error !== undefined || isBlankOrComment(line)) return;
    const fields = splitFields(line);
    if (fields.length !== 4) {
      error = {
        file: path,
        line: lineNumber,
        message: `expected 4 fields "qid iter docno grade", found ${fields.length}`,
        fix: 'write one judgment per line as: topic-id 0 document-id grade',
      };
      return;
    }
    const [topicId, , documentId, gradeText] = fields as [string, string, string, string];
    const grade = parseGrade(gradeText);
    if (grade === undefined) {
      error = {
        file: path,
        line: lineNumber,
        field: 'grade',
        message: `expected an integer relevance grade, got "${gradeText}"`,
        fix: 'use 0 for not relevant and 1, 2, 3, ... for relevant grades',
      };
      return;
    }
    if (current === undefined || topicId !== currentId) {
      currentId = topicId;
      current = qrels.get(topicId);
      if (current === undefined) {
        current = { grades: new Map(), gradeCounts: [] };
        qrels.set(topicId, current);
      }
    }
    if (current.grades.has(documentId)) {
      error = {
        file: path,
        line: lineNumber,
        field: 'docno',
        message: `topic ${topicId} judges document ${documentId} twice`,
        fix: `keep one judgment of ${documentId} for topic ${topicId}`,
      };
      return;
    }
    current.grades.set(documentId, grade);
    if (grade >= 0) {
      const counts = current.gradeCounts;
      while (counts.length <= grade) counts.push(0);
      counts[grade] = (counts[grade] as number) + 1;
    }
  });
  return error === undefined ? { ok: true, qrels } : { ok: false, error };
}

/** An integer grade; "1.0" is accepted as 1, "1.5" and "x" are not. */
function parseGrade(text: string): number | undefined {
  const value = Number(text);
  return Number.isInteger(value) && text.trim() !== '' ? value : undefined;
}

export function isBlankOrComment(line: string): boolean {
  if (line.charCodeAt(0) === 35) return true; // '#' in the first column, as trec_eval
  for (let index = 0; index < line.length; index++) {
    const code = line.charCodeAt(index);
    if (code !== 32 && (code < 9 || code > 13)) return false;
  }
  return true;
}
