import type { EvalCase, ExpectedDocument, RetrievedChunk } from '../schema/eval-case.js';
import type { InputError } from '../schema/input-error.js';
import { DatasetCounter, throwingOnFirstError, type DatasetEvent } from './dataset-events.js';
import { fileErrorFrom } from './file-errors.js';
import { readIdTexts, type IdTexts } from './trec-text-file.js';
import { readQrels, type Qrels } from './trec-qrels-reader.js';
import { compareBytes } from '../trec/trec-order.js';
import { rankLikeTrecEval } from './trec-ranking.js';
import { RunNames } from './run-names.js';
import { readRun, type RunTopics } from './trec-run-reader.js';

export interface TrecCollectionFiles {
  qrels?: string;
  runs: readonly string[];
  /** docid → text; fills the content of retrieved and judged documents. */
  corpus?: string;
  /** qid → text; fills the request. Without it the request is the qid itself. */
  queries?: string;
  strict?: boolean;
}

/**
 * Loads TREC qrels, runs, and optionally a corpus and queries, as EvalCases:
 * one case per topic, each run an engine named by its tag, the qrels the expected documents
 * with their grades. Topics come in trec_eval's order (qid byte order).
 *
 * Qrels and queries are small and held in memory; runs are read line by line
 * into a compact per-topic list. The corpus is read once, after the runs, and
 * only the documents they and the qrels mention are kept.
 */
export function loadTrecCollection(files: TrecCollectionFiles): AsyncGenerator<DatasetEvent> {
  return throwingOnFirstError(loadEvents(files), files.strict ?? false);
}

async function* loadEvents(files: TrecCollectionFiles): AsyncGenerator<DatasetEvent> {
  const counter = new DatasetCounter();
  const report = function* (errors: readonly InputError[]): Generator<DatasetEvent> {
    for (const error of errors) {
      counter.error();
      yield { kind: 'error', error };
    }
  };
  const noQrels: Qrels = { topics: new Map(), rows: 0, errors: [] };
  const qrels = files.qrels === undefined ? noQrels : await readOrReport(files.qrels, readQrels, noQrels);
  counter.row(qrels.rows);
  yield* report(qrels.errors);

  const runs: RunTopics = new Map();
  const seen = new Map<string, Set<string>>();
  const engineNames = new RunNames();
  for (const file of files.runs) {
    const target = { topics: runs, seen, engineFor: (tag: string) => engineNames.nameFor(tag, file) };
    const result = await readOrReport(file, (path) => readRun(path, target), { rows: 0, errors: [] });
    counter.row(result.rows);
    yield* report(result.errors);
  }
  seen.clear();

  const queries = files.queries === undefined ? undefined : await readOrReport(files.queries, (path) => readIdTexts(path), emptyTexts());
  yield* report(queries?.errors ?? []);
  const corpus = files.corpus === undefined ? undefined : await readOrReport(files.corpus, (path) => readIdTexts(path, neededDocuments(qrels, runs)), emptyTexts());
  yield* report(corpus?.errors ?? []);

  const topicIds = [...new Set([...qrels.topics.keys(), ...runs.keys()])].sort(compareBytes);
  for (const qid of topicIds) {
    const evalCase = buildCase(qid, qrels.topics.get(qid), runs.get(qid), queries?.texts, corpus?.texts);
    counter.case(evalCase);
    yield { kind: 'case', case: evalCase };
  }
  yield { kind: 'end', counts: counter.snapshot() };
}

function buildCase(
  qid: string,
  judgments: readonly ExpectedDocument[] | undefined,
  runsOfTopic: ReadonlyMap<string, readonly { docno: string; score: number }[]> | undefined,
  queries: ReadonlyMap<string, string> | undefined,
  corpus: ReadonlyMap<string, string> | undefined,
): EvalCase {
  const withContent = <Document extends RetrievedChunk | ExpectedDocument>(document: Document): Document => {
    const content = corpus?.get(document.doc_uri);
    return content === undefined ? document : { ...document, content };
  };
  const engines: EvalCase['engines'] = {};
  for (const [tag, entries] of runsOfTopic ?? []) engines[tag] = { retrieved_context: rankLikeTrecEval(entries).map(withContent), tags: {} };
  const evalCase: EvalCase = { request_id: qid, request: queries?.get(qid) ?? qid, engines, tags: {} };
  if (judgments !== undefined) evalCase.expected_retrieved_context = judgments.map(withContent);
  return evalCase;
}

function neededDocuments(qrels: Qrels, runs: RunTopics): Set<string> {
  const needed = new Set<string>();
  for (const judgments of qrels.topics.values()) for (const judgment of judgments) needed.add(judgment.doc_uri);
  for (const byTag of runs.values()) for (const entries of byTag.values()) for (const entry of entries) needed.add(entry.docno);
  return needed;
}

function emptyTexts(): IdTexts {
  return { texts: new Map(), errors: [] };
}

/** A file that cannot be read becomes one error in the result, not an exception. */
async function readOrReport<Result extends { errors: InputError[] }>(file: string, read: (file: string) => Promise<Result>, empty: Result): Promise<Result> {
  try {
    return await read(file);
  } catch (error) {
    const fileError = fileErrorFrom(file, error);
    if (fileError === undefined) throw error;
    return { ...empty, errors: [fileError] };
  }
}
