import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { caseLineSchema, type CaseLine } from '../schema/report.js';

/**
 * `judgments.qrels`: every (request, document) the run's judges graded, in
 * TREC qrels format (`request_id 0 doc_uri grade`), so LLM labels feed
 * trec_eval, ranx or `assay agreement`. The grade is graded_relevance's 0-3
 * grade, or chunk_relevance's yes/no as 1/0 when no graded judge ran (LLM
 * verdicts preferred over the offline lexical judge's). Documents are pooled:
 * each appears once per request, with the grade of its first judged chunk, in
 * the order of the case lines; a chunk whose judgment failed is left out.
 */
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
    if (document === undefined) return [];
    if (typeof rating === 'number' && Number.isInteger(rating)) return [[document.doc_uri, rating]];
    if (rating === 'yes' || rating === 'no') return [[document.doc_uri, rating === 'yes' ? 1 : 0]];
    return [];
  });
}

const GRADE_KEYS = [...GRADED, ...BINARY].map((name) => JSON.stringify(name));

/**
 * Whether a case line may carry a retrieval judge's grades: a cheap look at
 * the text first, because a ground-truth-only run's lines (thousands of
 * documents each over many engines) would otherwise all be parsed for nothing.
 */
function mayHoldGrades(row: string): boolean {
  return GRADE_KEYS.some((key) => row.includes(key));
}

/** Streams cases.jsonl (case-id order) into a qrels file; returns how many judgments it wrote. */
export async function writeJudgmentsQrels(casesPath: string, qrelsPath: string): Promise<number> {
  const output = createWriteStream(qrelsPath);
  let written = 0;
  let caseId: string | undefined;
  let seen = new Set<string>();
  try {
    for await (const row of createInterface({ input: createReadStream(casesPath), crlfDelay: Number.POSITIVE_INFINITY })) {
      if (!mayHoldGrades(row)) continue;
      const line = caseLineSchema.parse(JSON.parse(row));
      if (line.case_id !== caseId) {
        caseId = line.case_id;
        seen = new Set();
      }
      for (const [document, grade] of gradedDocuments(line)) {
        if (seen.has(document)) continue;
        seen.add(document);
        written++;
        if (!output.write(`${line.request_id} 0 ${document} ${grade}\n`)) await once(output, 'drain');
      }
    }
  } finally {
    output.end();
    await once(output, 'close');
  }
  return written;
}
