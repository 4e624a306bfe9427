import type { InputError } from '../schema/input-error.js';
import { stat } from 'node:fs/promises';
import { CaseGrouper, type CaseIdRule } from '../rows/case-grouper.js';
import { decodeCsvRow } from '../rows/csv-cells.js';
import { readCsvRows } from '../readers/csv-reader.js';
import { DatasetCounter, throwingOnFirstError, type DatasetEvent } from '../rows/dataset-events.js';
import { datasetFormatFromName, type DatasetFormat } from './dataset-format.js';
import { readJsonArray } from '../readers/json-array-reader.js';
import { readJsonLines } from '../readers/jsonl-reader.js';
import { normaliseRow } from '../rows/normalise-row.js';
import { SpillingCaseGrouper } from '../rows/spilling-case-grouper.js';
import type { ReaderEvent, SourceRow } from '../readers/reader-event.js';
import { foreignStartOf } from '../readers/file-encoding.js';
import { encodingError, fileErrorFrom } from '../readers/file-errors.js';
import { findReservedKey, reservedKeyError } from '../rows/own-keys.js';
import { DEFAULT_ROW_LIMITS, type RowLimits } from '../readers/row-limits.js';

export interface LoadDatasetOptions {
  /** Overrides the format the file name implies. */
  format?: DatasetFormat;
  /**
   * Groups rows through spill files in this folder (created, then removed),
   * so memory stays bounded whatever the number of cases; the cases then come
   * out in a fixed order by partition instead of by first row.
   */
  spillFolder?: string;
  /** Throw a DatasetError at the first bad row instead of reporting it and going on. */
  strict?: boolean;
  /**
   * The id each case goes by downstream, when it is not the request id
   * itself: a request whose case id an earlier request already has is
   * rejected rather than allowed to share that case's records.
   */
  caseIds?: CaseIdRule;
  /** Bounds on one row (DEFAULT_ROW_LIMITS: 64 Mi characters, 64 levels); a row past them is an input error. */
  limits?: Partial<RowLimits>;
}

/**
 * Loads a dataset file in any accepted convention (Databricks/MLflow, RAGAS,
 * DeepEval, Spring AI) and format (JSONL, JSON array, CSV) as EvalCases.
 *
 * The file is streamed; bad rows are reported as `error` events as they are
 * met and the good rows load. Cases come after the last row, because the rows
 * of one request may be anywhere in the file: memory grows with the cases, not
 * with the file. The last event is `end`, with the counts.
 */
export function loadDataset(file: string, options: LoadDatasetOptions = {}): AsyncGenerator<DatasetEvent> {
  return throwingOnFirstError(loadEvents(file, options), options.strict ?? false);
}

async function* loadEvents(file: string, options: LoadDatasetOptions): AsyncGenerator<DatasetEvent> {
  const { format: givenFormat, spillFolder, caseIds } = options;
  const limits: RowLimits = { ...DEFAULT_ROW_LIMITS, ...options.limits };
  const counter = new DatasetCounter();
  const reportError = (error: InputError): DatasetEvent => {
    counter.error();
    return { kind: 'error', error };
  };
  const format = givenFormat ?? datasetFormatFromName(file);
  if (format === undefined) {
    // A compressed file (rows.jsonl.gz) is told by its first bytes better than by its name.
    const foreign = await foreignStartOf(file);
    yield reportError(
      foreign !== undefined
        ? encodingError(file, foreign)
        : {
            file,
            line: 0,
            message: 'cannot tell the dataset format from the file name',
            fix: 'name the file .jsonl, .json or .csv, or give the format',
          },
    );
    yield { kind: 'end', counts: counter.snapshot() };
    return;
  }
  const grouper = new CaseGrouper(file, caseIds);
  const partitions = spillFolder === undefined ? 0 : SpillingCaseGrouper.partitionsFor((await stat(file).catch(() => ({ size: 0 }))).size);
  const spilling = spillFolder === undefined ? undefined : new SpillingCaseGrouper(file, spillFolder, partitions, caseIds);
  try {
    for await (const event of readRows(file, format, limits)) {
      if (event.kind === 'file-error') {
        yield reportError(event.error);
        continue;
      }
      counter.row();
      if (event.kind === 'bad-row') {
        for (const error of event.errors) yield reportError(error);
        continue;
      }
      const reservedKey = findReservedKey(event.row.fields);
      if (reservedKey !== undefined) {
        yield reportError(reservedKeyError(file, event.row.line, reservedKey));
        continue;
      }
      const normalised = normaliseRow(file, event.row);
      if (normalised.ok && spilling !== undefined) {
        await spilling.add(normalised.value);
        continue;
      }
      const errors = normalised.ok ? grouper.add(normalised.value) : normalised.error;
      for (const error of errors) yield reportError(error);
    }
  } catch (error) {
    const fileError = fileErrorFrom(file, error);
    if (fileError === undefined) throw error;
    yield reportError(fileError);
  }
  if (counter.rows === 0 && counter.errors === 0) {
    yield reportError({ file, line: 0, message: 'the file holds no rows', fix: 'add at least one row with a request' });
  }
  if (spilling !== undefined) {
    for await (const grouped of spilling.finish()) {
      if (grouped.kind === 'errors') {
        for (const error of grouped.errors) yield reportError(error);
        continue;
      }
      counter.case(grouped.case);
      yield grouped;
    }
  }
  for (const evalCase of grouper.finish()) {
    counter.case(evalCase);
    yield { kind: 'case', case: evalCase };
  }
  yield { kind: 'end', counts: counter.snapshot() };
}

async function* readRows(file: string, format: DatasetFormat, limits: RowLimits): AsyncGenerator<ReaderEvent> {
  switch (format) {
    case 'jsonl':
      yield* readJsonLines(file, limits);
      return;
    case 'json':
      yield* readJsonArray(file, limits);
      return;
    case 'csv':
      for await (const event of readCsvRows(file, limits)) {
        if (event.kind !== 'row') {
          yield event;
          continue;
        }
        const decoded = decodeCsvRow(file, event.row, limits);
        if (decoded.ok) yield { kind: 'row', row: decoded.value satisfies SourceRow };
        else yield { kind: 'bad-row', errors: decoded.error };
      }
      return;
  }
}
