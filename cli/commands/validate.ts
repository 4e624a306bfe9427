import { Command, Option } from 'commander';
import {
  DATASET_FORMATS,
  DatasetError,
  loadDataset,
  loadTrecCollection,
  sniffInputKind,
  type DatasetEvent,
  type DatasetFormat,
  type InputKind,
} from '../../shared/dataset/index.js';
import { FileEncodingError } from '../../shared/readers/file-encoding.js';
import { CASE_ID_RULE } from '../../shared/run/run-identity.js';
import { formatInputError } from '../../shared/schema/input-error.js';
import { assertReadableFile } from '../readable-file.js';
import { UsageError } from '../usage-error.js';
import { ValidationReport } from '../validation-report.js';

const FORMAT_CHOICES = [...DATASET_FORMATS, 'qrels', 'run', 'trec'] as const;
type FormatChoice = (typeof FORMAT_CHOICES)[number];

interface ValidateOptions {
  format?: FormatChoice;
  strict?: boolean;
  json?: boolean;
  corpus?: string;
  queries?: string;
}

/** The inputs sorted by kind: dataset files load one by one, TREC files as one collection. */
interface Inputs {
  datasets: { file: string; format: DatasetFormat }[];
  qrels: string[];
  runs: string[];
}

/**
 * `assay validate DATASET...`: reads datasets the way a run would and reports
 * what it found (rows, cases, engines, labelled cases) and every bad row.
 * Exit code 0 when all rows are good, 1 when some are bad, 2 for a usage error.
 */
export function validateCommand(): Command {
  return new Command('validate')
    .description('Check dataset files: count rows, cases, engines and labelled cases, and list every bad row')
    .argument('<datasets...>', 'dataset files (.jsonl, .json, .csv) or TREC qrels and run files')
    .addOption(
      new Option('--format <format>', 'read every file in this format (trec: qrels or run, told by the number of columns)').choices(
        FORMAT_CHOICES,
      ),
    )
    .option('--strict', 'stop at the first bad row')
    .option(
      '--json',
      'print {"rows", "cases", "engines", "labelled_cases", "expected_response_cases", "human_verdict_cases", "errors"} as JSON',
    )
    .option('--corpus <file>', 'TREC corpus (JSONL {"_id", "text"} or TSV id<TAB>text) to fill document text')
    .option('--queries <file>', 'TREC queries (JSONL or TSV) to fill the request text; without it the request is the qid')
    .exitOverride()
    .action(async (files: string[], options: ValidateOptions) => {
      const report = await validate(files, options);
      process.stdout.write(options.json === true ? report.toJson() : report.toText());
      if (report.errorCount > 0) {
        // With no case read, there are no other rows to call valid.
        const rest = report.caseCount === 0 ? 'no case could be read' : 'the other rows are valid';
        throw new UsageError(`${report.errorCount} input ${report.errorCount === 1 ? 'error' : 'errors'}; ${rest}`, 1);
      }
    });
}

async function validate(files: readonly string[], options: ValidateOptions): Promise<ValidationReport> {
  await Promise.all(files.map((file) => assertReadableFile(file, 'dataset')));
  if (options.corpus !== undefined) await assertReadableFile(options.corpus, 'corpus');
  if (options.queries !== undefined) await assertReadableFile(options.queries, 'queries');
  const inputs = await sortInputs(files, options.format);
  const isTrec = inputs.qrels.length > 0 || inputs.runs.length > 0;
  if (!isTrec && (options.corpus !== undefined || options.queries !== undefined)) {
    throw new UsageError('--corpus and --queries go with TREC qrels and run files');
  }
  if (inputs.qrels.length > 1) throw new UsageError(`Expected one qrels file, got ${inputs.qrels.length}: ${inputs.qrels.join(', ')}`);

  const report = new ValidationReport();
  const strict = options.strict === true;
  for (const { file, format } of inputs.datasets) await consume(loadDataset(file, { format, strict, caseIds: CASE_ID_RULE }), report);
  if (isTrec) {
    await consume(
      loadTrecCollection({ qrels: inputs.qrels[0], runs: inputs.runs, corpus: options.corpus, queries: options.queries, strict }),
      report,
    );
  }
  return report;
}

async function consume(events: AsyncIterable<DatasetEvent>, report: ValidationReport): Promise<void> {
  try {
    for await (const event of events) {
      if (event.kind === 'error') report.addError(event.error);
      else if (event.kind === 'end') report.addCounts(event.counts);
    }
  } catch (error) {
    // Strict mode: the first bad row ends the run, reported like any other input error.
    if (error instanceof DatasetError) throw new UsageError(formatInputError(error.inputError), 1);
    throw error;
  }
}

async function sortInputs(files: readonly string[], format: FormatChoice | undefined): Promise<Inputs> {
  const inputs: Inputs = { datasets: [], qrels: [], runs: [] };
  for (const file of files) {
    const kind = await kindOf(file, format);
    if (kind === 'qrels') inputs.qrels.push(file);
    else if (kind === 'run') inputs.runs.push(file);
    else inputs.datasets.push({ file, format: kind });
  }
  return inputs;
}

async function kindOf(file: string, format: FormatChoice | undefined): Promise<InputKind> {
  if (format !== undefined && format !== 'trec') return format;
  const sniffed = await sniffInputKind(file).catch((error: unknown) => {
    // A file in UTF-16, say: what it is tells the user more than that its format cannot be told.
    if (error instanceof FileEncodingError) throw new UsageError(`${file}: ${error.message} (fix: ${error.fix})`);
    throw error;
  });
  if (format === 'trec' && sniffed !== 'qrels' && sniffed !== 'run') {
    throw new UsageError(
      `${file} is neither a qrels file (4 columns: qid iter docno grade) nor a run file (6 columns: qid Q0 docno rank score tag)`,
    );
  }
  if (sniffed === undefined) {
    throw new UsageError(
      `Cannot tell the format of ${file}: name it .jsonl, .json or .csv, or pass --format (${FORMAT_CHOICES.join(', ')})`,
    );
  }
  return sniffed;
}
