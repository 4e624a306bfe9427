import type { ExpectedDocument } from '../schema/eval-case.js';
import type { InputError } from '../schema/input-error.js';
import { GRADE_ABOVE_LIMIT_FIX, gradeAboveLimit, MAX_GRADE } from '../schema/relevance-grade.js';
import { readLines } from '../readers/text-lines.js';
import { parseTrecInteger, splitTrecFields, type LineProblem } from './trec-fields.js';

/** The judgments of a qrels file, by topic id, in file order. */
export interface CollectionQrels {
  topics: Map<string, ExpectedDocument[]>;
  /** Judgment lines read, good or bad. */
  rows: number;
  errors: InputError[];
}

interface Judgment {
  qid: string;
  docno: string;
  grade: number;
}

const QRELS_LINE = 'write each judgment as four fields: topic-id iteration document-id grade (e.g. "301 0 FBIS3-10082 1")';

/**
 * Reads a TREC qrels file (`qid iter docno grade`). Qrels are small next to
 * runs and corpora, so they are held in memory. A document judged twice for
 * one topic is an error, as in trec_eval: which grade to use would be a guess.
 * A collection's reader: every bad line is an input error and reading goes
 * on (shared/trec's readQrels, for ir-metrics, stops at the first).
 */
export async function readCollectionQrels(file: string): Promise<CollectionQrels> {
  const qrels: CollectionQrels = { topics: new Map(), rows: 0, errors: [] };
  const firstLines = new Map<string, Map<string, number>>();
  for await (const { line, text } of readLines(file)) {
    const fields = splitTrecFields(text);
    if (fields.length === 0) continue;
    qrels.rows += 1;
    const judgment = parseJudgment(fields);
    if ('message' in judgment) {
      qrels.errors.push({ file, line, ...judgment });
      continue;
    }
    const { qid, docno, grade } = judgment;
    const seen = firstLines.get(qid) ?? new Map<string, number>();
    firstLines.set(qid, seen);
    const earlier = seen.get(docno);
    if (earlier !== undefined) {
      qrels.errors.push({
        file,
        line,
        field: 'docno',
        message: `topic ${qid} judges document ${docno} twice (first on line ${earlier})`,
        fix: 'keep one judgment per topic and document',
      });
      continue;
    }
    seen.set(docno, line);
    const judgments = qrels.topics.get(qid) ?? [];
    qrels.topics.set(qid, judgments);
    judgments.push({ doc_uri: docno, grade });
  }
  return qrels;
}

function parseJudgment(fields: readonly string[]): Judgment | LineProblem {
  if (fields.length !== 4) return { message: `expected 4 fields (qid iter docno grade), got ${fields.length}`, fix: QRELS_LINE };
  const [qid = '', , docno = '', gradeText = ''] = fields;
  const grade = parseTrecInteger(gradeText);
  if (grade === undefined) {
    return {
      field: 'grade',
      message: `expected an integer grade, got "${gradeText}"`,
      fix: 'give the relevance grade as an integer: 0 = not relevant, 1 or more = relevant',
    };
  }
  if (grade > MAX_GRADE) return { field: 'grade', message: gradeAboveLimit(`"${gradeText}"`), fix: GRADE_ABOVE_LIMIT_FIX };
  return { qid, docno, grade };
}
