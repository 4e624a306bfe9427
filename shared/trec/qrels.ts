import type { InputError } from '../schema/input-error.js';
import { decodeField, forEachLineBytes, isBlankOrCommentBytes, scanFields } from './line-reader.js';
import { ByteStringTable, type ByteStringTableParts } from './byte-string-table.js';
import { parseNumberBytes } from './parse-number.js';

/** The judgments of one topic: its judged document ids, their grades, and how many docs have each grade >= 0. */
export interface TopicJudgments {
  readonly documents: ByteStringTable;
  /** grades[id] = grade of document `id` of `documents`. */
  readonly grades: number[];
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
  let currentId: string | undefined;
  let current: TopicJudgments | undefined;
  const bounds = new Int32Array(10);
  await forEachLineBytes(path, (buffer, start, end, lineNumber) => {
    if (error !== undefined || isBlankOrCommentBytes(buffer, start, end)) return;
    const fieldCount = scanFields(buffer, start, end, 5, bounds);
    if (fieldCount !== 4) {
      error = {
        file: path,
        line: lineNumber,
        message: `expected 4 fields "qid iter docno grade", found ${fieldCount === 5 ? 'more' : fieldCount}`,
        fix: 'write one judgment per line as: topic-id 0 document-id grade',
      };
      return;
    }
    const grade = parseNumberBytes(buffer, bounds[6] as number, bounds[7] as number);
    if (!Number.isInteger(grade)) {
      error = {
        file: path,
        line: lineNumber,
        field: 'grade',
        message: `expected an integer relevance grade, got "${decodeField(buffer, bounds[6] as number, bounds[7] as number)}"`,
        fix: 'use 0 for not relevant and 1, 2, 3, ... for relevant grades',
      };
      return;
    }
    const topicId = decodeField(buffer, bounds[0] as number, bounds[1] as number);
    if (current === undefined || topicId !== currentId) {
      currentId = topicId;
      current = qrels.get(topicId);
      if (current === undefined) {
        current = emptyJudgments();
        qrels.set(topicId, current);
      }
    }
    if (current.documents.add(buffer, bounds[4] as number, bounds[5] as number) < 0) {
      const documentId = decodeField(buffer, bounds[4] as number, bounds[5] as number);
      error = {
        file: path,
        line: lineNumber,
        field: 'docno',
        message: `topic ${topicId} judges document ${documentId} twice`,
        fix: `keep one judgment of ${documentId} for topic ${topicId}`,
      };
      return;
    }
    addGrade(current, grade);
  });
  return error === undefined ? { ok: true, qrels } : { ok: false, error };
}

function emptyJudgments(): TopicJudgments {
  return { documents: new ByteStringTable(), grades: [], gradeCounts: [] };
}

function addGrade(judgments: TopicJudgments, grade: number): void {
  judgments.grades.push(grade);
  if (grade >= 0) {
    const counts = judgments.gradeCounts;
    while (counts.length <= grade) counts.push(0);
    counts[grade] = (counts[grade] as number) + 1;
  }
}

/** Judgments built in code (tests, callers holding a Map); throws on a repeated id, which a Map cannot hold anyway. */
export function topicJudgmentsOf(grades: Iterable<readonly [documentId: string, grade: number]>): TopicJudgments {
  const judgments = emptyJudgments();
  for (const [documentId, grade] of grades) {
    if (judgments.documents.addText(documentId) < 0) throw new Error(`Document ${documentId} is judged twice`);
    addGrade(judgments, grade);
  }
  return judgments;
}

/** The grades of a topic as a Map, for reading and tests. */
export function gradesByDocument(judgments: TopicJudgments): Map<string, number> {
  return new Map(judgments.documents.texts().map((documentId, id) => [documentId, judgments.grades[id] as number]));
}

/** Qrels as plain data that a structured clone keeps whole: how they reach a worker thread without being read again. */
export type QrelsParts = readonly (readonly [topicId: string, documents: ByteStringTableParts, grades: number[], gradeCounts: number[]])[];

export function qrelsToParts(qrels: Qrels): QrelsParts {
  return [...qrels].map(([topicId, judgments]) => [topicId, judgments.documents.toParts(), judgments.grades, judgments.gradeCounts]);
}

export function qrelsFromParts(parts: QrelsParts): Qrels {
  return new Map(parts.map(([topicId, documents, grades, gradeCounts]) => [topicId, { documents: ByteStringTable.fromParts(documents), grades, gradeCounts }]));
}
