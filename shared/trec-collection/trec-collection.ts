import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatasetCounter, throwingOnFirstError, type DatasetEvent } from '../rows/dataset-events.js';
import { readIdTexts } from './trec-text-file.js';
import { emptyTexts, errorReporter, readOrReport, readQrelsOf } from './trec-inputs.js';
import { RUNS_IN_MEMORY_BYTES, RunsInMemory } from './trec-collection-in-memory.js';
import { readRunTopicsInTurn } from './trec-run-topics.js';
import { spilledRunEvents } from './trec-collection-spilled.js';
import type { TrecCollectionFiles } from './trec-collection-files.js';

export type { TrecCollectionFiles } from './trec-collection-files.js';

/**
 * Loads TREC qrels, runs, and optionally a corpus and queries, as EvalCases:
 * one case per topic, each run an engine named by its tag, the qrels the
 * expected documents with their grades. The one load of a collection:
 * `assay run` (ingest) and `assay validate` read a collection here, so they
 * find the same cases and the same errors, every run line read by the
 * run-line rule (shared/trec/run-line.ts, every bad line reported).
 *
 * Qrels and queries are small and held in memory. Run files of at most
 * RUNS_IN_MEMORY_BYTES in all (and no corpus) are read whole, each into its
 * topics' ranked lists (by the WebAssembly kernel when of the common shape;
 * on worker threads when `work` has them), and the cases come in trec_eval's
 * order (qid byte order). Larger runs, or runs with a corpus, are spilled by
 * topic into `spillFolder` (a folder of the system's temporary one when not
 * given; created only then, and removed), so memory stays bounded by a few
 * topics (trec-collection-spilled.ts); the corpus is read once, after the
 * runs, for the documents the cases show.
 */
export function loadTrecCollection(files: TrecCollectionFiles): AsyncGenerator<DatasetEvent> {
  return throwingOnFirstError(loadEvents(files), files.strict ?? false);
}

async function* loadEvents(files: TrecCollectionFiles): AsyncGenerator<DatasetEvent> {
  const counter = new DatasetCounter();
  const report = errorReporter(counter);
  const qrels = await readQrelsOf(files);
  counter.row(qrels.rows);
  yield* report(qrels.errors);

  const sizes = await Promise.all(
    files.runs.map((file) =>
      stat(file).then(
        (stats) => stats.size,
        () => 0,
      ),
    ),
  );
  const runBytes = sizes.reduce((sum, size) => sum + size, 0);
  if (files.corpus === undefined && runBytes <= (files.runsInMemoryUpTo ?? RUNS_IN_MEMORY_BYTES)) {
    const runs = RunsInMemory.of(files.runs, await (files.work?.readRunTopics ?? readRunTopicsInTurn)(files.runs));
    if (runs !== undefined) {
      const queries =
        files.queries === undefined ? emptyTexts() : await readOrReport(files.queries, (path) => readIdTexts(path), emptyTexts());
      yield* runs.events(qrels, counter, queries);
      yield { kind: 'end', counts: counter.snapshot() };
      return;
    }
  }
  const folder = files.spillFolder ?? join(tmpdir(), `assay-trec-${randomUUID()}`);
  yield* spilledRunEvents(files, folder, runBytes, qrels, counter);
  yield { kind: 'end', counts: counter.snapshot() };
}
