import { rm } from 'node:fs/promises';
import { compareBytes } from '../trec/trec-order.js';
import type { DatasetCounter, DatasetEvent } from '../rows/dataset-events.js';
import { RunNames } from './run-names.js';
import type { TrecCollectionFiles } from './trec-collection-files.js';
import { emptyTexts, errorReporter, readOrReport } from './trec-inputs.js';
import { SpilledRuns, spillPartitionsFor } from './trec-run-spill.js';
import { spillRunsInTurn } from './trec-run-spilling-reader.js';
import type { CollectionWork } from './trec-collection-work.js';
import { namedRuns, serializedCaseEvent, type PartitionRequest, type SerializedPartition } from './trec-partition-cases.js';
import { buildTrecCase, shownDocuments, type TrecTexts } from './trec-case.js';
import type { CollectionQrels } from './trec-qrels-reader.js';
import { readIdTexts } from './trec-text-file.js';

/** Partitions grouped ahead of the one whose cases are going out: enough to keep every thread busy, few enough to bound memory. */
const PARTITIONS_AHEAD = 4;

/**
 * The events of a collection's runs spilled to disk by topic (TrecRunSpill),
 * after the qrels' (read by loadTrecCollection, which comes here when the
 * runs are too large to read whole, or a corpus is given): each file's lines
 * counted and their errors, the queries' and the corpus's errors, then the
 * cases, with memory bounded by one partition's topics plus the qrels, the
 * queries and the corpus texts the cases show. Cases come partition by
 * partition, each partition's topics in trec_eval's order; a repeated
 * document is reported when its partition is grouped, after the line errors.
 */
export async function* spilledRunEvents(
  files: TrecCollectionFiles,
  folder: string,
  runBytes: number,
  qrels: CollectionQrels,
  counter: DatasetCounter,
): AsyncGenerator<DatasetEvent> {
  const report = errorReporter(counter);
  const work = files.work;
  const partitions = spillPartitionsFor(runBytes);
  // Engines are named file by file, each file's tags in the order it uses them: as one read of the files in turn would name them.
  const names = new RunNames();
  const engineNames: string[] = [];
  const engineIndex = new Map<string, number>();
  const engineOf: number[][] = [];
  const spilled = await (work?.spillRuns ?? spillRunsInTurn)(files.runs, folder, partitions).catch(async (error: unknown) => {
    await rm(folder, { recursive: true, force: true });
    throw error;
  });
  const spill = new SpilledRuns(folder, partitions, files.runs, engineOf);
  try {
    for (const [fileIndex, file] of files.runs.entries()) {
      const result = spilled[fileIndex] ?? { rows: 0, errors: [], tags: [] };
      engineOf.push(
        result.tags.map((tag) => {
          const name = names.nameFor(tag, file);
          let index = engineIndex.get(name);
          if (index === undefined) {
            index = engineNames.push(name) - 1;
            engineIndex.set(name, index);
          }
          return index;
        }),
      );
      counter.row(result.rows);
      yield* report(result.errors);
    }

    const queries = files.queries === undefined ? undefined : await readOrReport(files.queries, (path) => readIdTexts(path), emptyTexts());
    yield* report(queries?.errors ?? []);
    let corpus: Awaited<ReturnType<typeof readIdTexts>> | undefined;
    if (files.corpus !== undefined) {
      const needed = await shownInRuns(spill, engineNames, files.contentDepth);
      if (files.contentDepth === undefined)
        for (const judgments of qrels.topics.values()) for (const judgment of judgments) needed.add(judgment.doc_uri);
      corpus = await readOrReport(files.corpus, (path) => readIdTexts(path, needed), emptyTexts());
      yield* report(corpus.errors);
    }

    const qrelsTopicsOf: string[][] = Array.from({ length: spill.partitions }, () => []);
    for (const qid of qrels.topics.keys()) qrelsTopicsOf[spill.partitionOf(qid)]?.push(qid);
    const grouping = { spill, engineNames, qrels, qrelsTopicsOf, counter };
    if (work !== undefined && queries === undefined && corpus === undefined)
      yield* casesOnThreads(grouping, work, { folder, fileNames: files.runs, engineOf });
    else yield* casesHere(grouping, { queries: queries?.texts, corpus: corpus?.texts, contentDepth: files.contentDepth });
  } finally {
    await spill.remove();
  }
}

/** What grouping the spilled partitions into cases needs. */
interface Grouping {
  readonly spill: SpilledRuns;
  readonly engineNames: readonly string[];
  readonly qrels: CollectionQrels;
  /** The qrels' topics of each partition. */
  readonly qrelsTopicsOf: readonly (readonly string[])[];
  readonly counter: DatasetCounter;
}

/** The cases of every partition, grouped here: each partition's topics in trec_eval's order. */
async function* casesHere(grouping: Grouping, texts: TrecTexts): AsyncGenerator<DatasetEvent> {
  const { spill, engineNames, qrels, qrelsTopicsOf, counter } = grouping;
  const report = errorReporter(counter);
  for (let partition = 0; partition < spill.partitions; partition++) {
    const { topics, errors } = await spill.read(partition, engineNames);
    yield* report(errors);
    const topicIds = [...new Set([...topics.keys(), ...(qrelsTopicsOf[partition] ?? [])])].sort(compareBytes);
    for (const qid of topicIds) {
      const evalCase = buildTrecCase(qid, qrels.topics.get(qid), namedRuns(topics.get(qid), engineNames), texts);
      counter.case(evalCase);
      yield { kind: 'case', case: evalCase };
    }
  }
}

/**
 * The same cases, grouped and serialized by `work` (on worker threads), a
 * few partitions ahead of the one whose cases go out, in the same order.
 */
async function* casesOnThreads(
  grouping: Grouping,
  work: CollectionWork,
  spilled: Pick<PartitionRequest, 'folder' | 'fileNames' | 'engineOf'>,
): AsyncGenerator<DatasetEvent> {
  const { spill, engineNames, qrels, qrelsTopicsOf, counter } = grouping;
  const report = errorReporter(counter);
  const request = (partition: number): Promise<SerializedPartition> => {
    const judgments = (qrelsTopicsOf[partition] ?? []).map((qid) => [qid, qrels.topics.get(qid) ?? []] as const);
    const grouped = work.partitionCases({ ...spilled, partitions: spill.partitions, engineNames, partition, judgments });
    // Awaited in turn; one that fails while an earlier one is awaited must not count as unhandled meanwhile.
    grouped.catch(() => {});
    return grouped;
  };
  const ahead: Promise<SerializedPartition>[] = [];
  for (let partition = 0; partition < Math.min(PARTITIONS_AHEAD, spill.partitions); partition++) ahead.push(request(partition));
  for (let partition = 0; partition < spill.partitions; partition++) {
    const { errors, cases } = await (ahead.shift() as Promise<SerializedPartition>);
    if (partition + PARTITIONS_AHEAD < spill.partitions) ahead.push(request(partition + PARTITIONS_AHEAD));
    yield* report(errors);
    for (const serialized of cases) {
      counter.caseOf(serialized.engines, serialized.references);
      yield serializedCaseEvent(serialized);
    }
  }
}

/** The documents whose text the cases show: a pass over the spill before the corpus is read. */
async function shownInRuns(spill: SpilledRuns, engineNames: readonly string[], contentDepth: number | undefined): Promise<Set<string>> {
  const needed = new Set<string>();
  for (let partition = 0; partition < spill.partitions; partition++) {
    const { topics } = await spill.read(partition, engineNames);
    for (const byEngine of topics.values()) shownDocuments(byEngine.values(), contentDepth, needed);
  }
  return needed;
}
