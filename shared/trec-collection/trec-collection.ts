import { DatasetCounter, throwingOnFirstError, type DatasetEvent } from '../rows/dataset-events.js';
import { readIdTexts } from './trec-text-file.js';
import type { CollectionQrels } from './trec-qrels-reader.js';
import { emptyTexts, errorReporter, readOrReport, readQrelsOf } from './trec-inputs.js';
import { compareBytes } from '../trec/trec-order.js';
import { RunNames } from './run-names.js';
import { readCollectionRun, type RunTopics } from './trec-run-reader.js';
import { buildTrecCase } from './trec-case.js';
import { loadSpilledCollection } from './trec-collection-spilled.js';
import type { TrecCollectionFiles } from './trec-collection-files.js';

export type { TrecCollectionFiles } from './trec-collection-files.js';

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
  const events = files.spillFolder === undefined ? loadEvents(files) : loadSpilledCollection(files, files.spillFolder, files.work);
  return throwingOnFirstError(events, files.strict ?? false);
}

async function* loadEvents(files: TrecCollectionFiles): AsyncGenerator<DatasetEvent> {
  const counter = new DatasetCounter();
  const report = errorReporter(counter);
  const qrels = await readQrelsOf(files);
  counter.row(qrels.rows);
  yield* report(qrels.errors);

  const runs: RunTopics = new Map();
  const seen = new Map<string, Set<string>>();
  const engineNames = new RunNames();
  for (const file of files.runs) {
    const target = { topics: runs, seen, engineFor: (tag: string) => engineNames.nameFor(tag, file) };
    const result = await readOrReport(file, (path) => readCollectionRun(path, target), { rows: 0, errors: [] });
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
    const evalCase = buildTrecCase(qid, qrels.topics.get(qid), runs.get(qid) ?? [], { queries: queries?.texts, corpus: corpus?.texts, contentDepth: files.contentDepth });
    counter.case(evalCase);
    yield { kind: 'case', case: evalCase };
  }
  yield { kind: 'end', counts: counter.snapshot() };
}

function neededDocuments(qrels: CollectionQrels, runs: RunTopics): Set<string> {
  const needed = new Set<string>();
  for (const judgments of qrels.topics.values()) for (const judgment of judgments) needed.add(judgment.doc_uri);
  for (const byTag of runs.values()) for (const entries of byTag.values()) for (const entry of entries) needed.add(entry.docno);
  return needed;
}
