import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { readJsonWith } from '../schema/parse-json-with.js';
import { caseLineSchema, type CaseLine } from '../schema/report.js';
import { trecIdField } from '../trec/id-field.js';
import { FileWriter } from '../ports/file-writer.js';

/**
 * `judgments.qrels`: every (request, document) the run's judges graded, in
 * TREC qrels format (`request_id 0 doc_uri grade`), so LLM labels feed
 * trec_eval, ranx or `assay agreement`. The grade is graded_relevance's 0-3
 * grade, or chunk_relevance's yes/no as 1/0 when no graded judge ran (LLM
 * verdicts preferred over the offline lexical judge's). Documents are pooled:
 * each appears once per request, with the grade of its first judged chunk, in
 * the order of the case lines; a chunk whose judgment failed is left out.
 * An id that a TREC field cannot hold as it is (whitespace, a control
 * character, a request id starting with `#`) is percent-encoded (id-field.ts).
 */

/** The ratings a document's grade is read from: a graded judge's, else a yes/no judge's (BINARY); LLM before lexical. */
const GRADED = ['retrieval/llm_judged/graded_relevance/ratings', 'retrieval/lexical/graded_relevance/ratings'];
const BINARY = ['retrieval/llm_judged/chunk_relevance/ratings', 'retrieval/lexical/chunk_relevance/ratings'];

/** The graded documents of one case line: doc_uri -> grade, in rank order. */
export function gradedDocuments(line: CaseLine): [string, number][] {
  const retrieved = line.retrieved ?? [];
  const graded = GRADED.map((name) => line.metrics[name]).find(Array.isArray);
  const binary = BINARY.map((name) => line.metrics[name]).find(Array.isArray);
  const ratings = graded ?? binary;
  if (ratings === undefined) return [];
  // The judges saw the top of the list (run.judge_depth): ratings line up with its first entries.
  return ratings.flatMap((rating, index): [string, number][] => {
    const document = retrieved[index];
    const grade = gradeOfRating(rating);
    return document === undefined || grade === undefined ? [] : [[document.doc_uri, grade]];
  });
}

/** A per-chunk rating as a relevance grade: a whole-number grade as it is, yes/no as 1/0; anything else (a failed judgment) has none. */
export function gradeOfRating(rating: unknown): number | undefined {
  if (typeof rating === 'number' && Number.isInteger(rating)) return rating;
  if (rating === 'yes' || rating === 'no') return rating === 'yes' ? 1 : 0;
  return undefined;
}

/**
 * The text of any relevance judge's per-chunk ratings, variants (`@model`)
 * included: the only lines judgments.qrels and the agreement counts use.
 */
const RELEVANCE_RATINGS_KEY = /_relevance(?:@[^/"]*)?\/ratings"/;

/**
 * Whether a case line may carry a relevance judge's grades: a cheap look at
 * the text first, because a ground-truth-only run's lines (thousands of
 * documents each over many engines) would otherwise all be parsed for nothing.
 */
function mayHoldGrades(row: string): boolean {
  return RELEVANCE_RATINGS_KEY.test(row);
}

/**
 * Streams cases.jsonl (case-id order) into a qrels file; returns how many
 * judgments it wrote. `onLine` sees every line that carries relevance
 * ratings on the way, so other summaries of them (judge-agreement.ts) cost
 * no second read; with `everyLine`, every line (a run whose answer judges'
 * ratings are corrected by human verdicts: corrected-estimates.ts).
 */
export async function writeJudgmentsQrels(
  casesPath: string,
  qrelsPath: string,
  onLine?: (line: CaseLine) => void,
  options: { readonly everyLine?: boolean } = {},
): Promise<number> {
  const output = new FileWriter(qrelsPath);
  let written = 0;
  let caseId: string | undefined;
  let seen = new Set<string>();
  try {
    for await (const row of createInterface({ input: createReadStream(casesPath), crlfDelay: Number.POSITIVE_INFINITY })) {
      if (options.everyLine !== true && !mayHoldGrades(row)) continue;
      const line = readJsonWith(caseLineSchema, row, casesPath);
      onLine?.(line);
      if (line.case_id !== caseId) {
        caseId = line.case_id;
        seen = new Set();
      }
      const topic = trecIdField(line.request_id, 'first');
      for (const [document, grade] of gradedDocuments(line)) {
        // By the field as written: two ids that encode alike would otherwise judge one qrels document twice.
        const field = trecIdField(document, 'inner');
        if (seen.has(field)) continue;
        seen.add(field);
        written++;
        await output.write(`${topic} 0 ${field} ${grade}\n`);
      }
    }
  } finally {
    await output.close();
  }
  return written;
}
