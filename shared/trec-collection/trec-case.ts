import type { EvalCase, ExpectedDocument, RetrievedChunk } from '../schema/eval-case.js';
import { rankLikeTrecEval, type RunEntry } from './trec-ranking.js';

/** What fills a topic's case besides its judgments and runs. */
export interface TrecTexts {
  /** qid → query text. */
  queries?: ReadonlyMap<string, string>;
  /** docid → document text. */
  corpus?: ReadonlyMap<string, string>;
  /**
   * Only the top this-many chunks of each engine get their text, and judged
   * documents none: what the judges read, without carrying a thousand texts
   * per engine in every case. Absent: every document gets its text.
   */
  contentDepth?: number;
}

/**
 * One topic as an EvalCase: each run an engine (ranked as trec_eval ranks),
 * the judgments the expected documents, the query text the request (the qid
 * when there is none).
 */
export function buildTrecCase(
  qid: string,
  judgments: readonly ExpectedDocument[] | undefined,
  runsOfTopic: Iterable<readonly [string, readonly RunEntry[]]>,
  texts: TrecTexts,
): EvalCase {
  const { corpus, contentDepth } = texts;
  const withContent = <Document extends RetrievedChunk | ExpectedDocument>(document: Document): Document => {
    const content = corpus?.get(document.doc_uri);
    return content === undefined ? document : { ...document, content };
  };
  const engines: EvalCase['engines'] = {};
  for (const [engine, entries] of runsOfTopic) {
    const ranked = rankLikeTrecEval(entries);
    const depth = corpus === undefined ? 0 : Math.min(contentDepth ?? ranked.length, ranked.length);
    for (let index = 0; index < depth; index++) ranked[index] = withContent(ranked[index] as RetrievedChunk);
    engines[engine] = { retrieved_context: ranked, tags: {} };
  }
  const evalCase: EvalCase = { request_id: qid, request: texts.queries?.get(qid) ?? qid, engines, tags: {} };
  if (judgments !== undefined)
    evalCase.expected_retrieved_context = contentDepth === undefined ? judgments.map(withContent) : [...judgments];
  return evalCase;
}

/** The documents whose text a case of these runs shows: the top `contentDepth` of each, or all. */
export function shownDocuments(runsOfTopic: Iterable<readonly RunEntry[]>, contentDepth: number | undefined, into: Set<string>): void {
  for (const entries of runsOfTopic) {
    const shown =
      contentDepth === undefined
        ? entries
        : rankLikeTrecEval(entries)
            .slice(0, contentDepth)
            .map((chunk) => ({ docno: chunk.doc_uri }));
    for (const entry of shown) into.add(entry.docno);
  }
}
