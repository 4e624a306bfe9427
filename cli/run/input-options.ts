import type { Command } from 'commander';
import { datasetFormatFromName } from '../../shared/dataset/dataset-format.js';
import { sniffInputKind } from '../../shared/dataset/input-kind.js';
import { FileEncodingError } from '../../shared/readers/file-encoding.js';
import { assertReadableFile } from '../readable-file.js';
import { UsageError } from '../usage-error.js';
import type { RunInput } from './upload-input.js';

/** The TREC collection options `assay run` and `assay submit` share. */
export interface CollectionOptions {
  qrels?: string;
  run?: string[];
  queries?: string;
  corpus?: string;
}

/** Adds --qrels, --run (repeatable), --queries and --corpus to a command. */
export function withCollectionOptions(command: Command): Command {
  return command
    .option('--qrels <file>', 'TREC qrels (qid 0 docid grade): evaluate TREC runs instead of a dataset file')
    .option(
      '--run <file>',
      'TREC run file (qid Q0 docid rank score tag), an engine named by its tag; repeat for several',
      (file: string, files: string[] = []) => [...files, file],
    )
    .option('--queries <file>', 'with --qrels: query texts (JSONL {"_id", "text"} or TSV id<TAB>text)')
    .option(
      '--corpus <file>',
      'with --qrels: document texts (JSONL or TSV); with --queries, the LLM judges judge the top run.judge_depth of every run',
    );
}

/**
 * What a run evaluates, from the command line: a dataset file, or a TREC
 * collection (--qrels with at least one --run). Checked before any work.
 */
export async function runInputOf(dataset: string | undefined, options: CollectionOptions): Promise<RunInput> {
  const runs = options.run ?? [];
  const collectionGiven = options.qrels !== undefined || runs.length > 0 || options.queries !== undefined || options.corpus !== undefined;
  if (!collectionGiven) {
    if (dataset === undefined) throw new UsageError('Give a dataset file, or a TREC collection with --qrels QRELS --run RUN');
    await assertReadableFile(dataset, 'dataset');
    await assertDatasetFormat(dataset);
    return { datasetPath: dataset };
  }
  if (dataset !== undefined)
    throw new UsageError(`Give either a dataset file (${dataset}) or a TREC collection (--qrels, --run), not both`);
  if (options.qrels === undefined)
    throw new UsageError('--run, --queries and --corpus go with --qrels QRELS: give the qrels of the collection');
  if (runs.length === 0) throw new UsageError('--qrels needs at least one --run RUN: the run files to evaluate');
  if ((options.queries === undefined) !== (options.corpus === undefined)) {
    throw new UsageError(
      '--queries and --corpus go together: the judges need the query and the document texts (without both, only the qrels score the runs)',
    );
  }
  await assertReadableFile(options.qrels, 'qrels');
  for (const run of runs) await assertReadableFile(run, 'run');
  if (options.queries !== undefined) await assertReadableFile(options.queries, 'queries');
  if (options.corpus !== undefined) await assertReadableFile(options.corpus, 'corpus');
  return { collection: { qrels: options.qrels, runs, queries: options.queries, corpus: options.corpus } };
}

/**
 * A dataset is read by its name's format (.jsonl, .json, .csv): one whose
 * name tells none is refused before the run starts, as `assay validate`
 * refuses it, rather than become a run whose every row fails at ingest. What
 * the file holds, when its first line tells, says what to do: a compressed
 * file, JSONL under another name, a TREC file.
 */
async function assertDatasetFormat(dataset: string): Promise<void> {
  if (datasetFormatFromName(dataset) !== undefined) return;
  const sniffed = await sniffInputKind(dataset).catch((error: unknown) => {
    if (error instanceof FileEncodingError) throw new UsageError(`${dataset}: ${error.message} (fix: ${error.fix})`);
    throw error;
  });
  const hint = /\.(tsv|tab)$/i.test(dataset)
    ? '; a tab-separated file named .csv is read as one (its header line holds tabs and no comma)'
    : sniffed === 'qrels' || sniffed === 'run'
      ? `; it reads as a TREC ${sniffed} file, which goes with --qrels QRELS --run RUN`
      : sniffed === undefined
        ? ''
        : `; its first line reads as ${sniffed === 'jsonl' ? 'JSONL' : sniffed.toUpperCase()}: name it .${sniffed}`;
  throw new UsageError(`Cannot tell the format of the dataset ${dataset} from its name: name it .jsonl, .json or .csv${hint}`);
}
