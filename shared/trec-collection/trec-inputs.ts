import type { InputError } from '../schema/input-error.js';
import type { DatasetCounter, DatasetEvent } from '../rows/dataset-events.js';
import { fileErrorFrom } from '../readers/file-errors.js';
import { readCollectionQrels, type CollectionQrels } from './trec-qrels-reader.js';
import type { IdTexts } from './trec-text-file.js';

/** Helpers of the TREC collection loaders (trec-collection.ts, trec-collection-spilled.ts). */

/** Reports input errors as events, counting them. */
export function errorReporter(counter: DatasetCounter): (errors: readonly InputError[]) => Generator<DatasetEvent> {
  return function* (errors) {
    for (const error of errors) {
      counter.error();
      yield { kind: 'error', error };
    }
  };
}

/** The collection's qrels, or none. */
export async function readQrelsOf(files: { qrels?: string }): Promise<CollectionQrels> {
  const noQrels: CollectionQrels = { topics: new Map(), rows: 0, errors: [] };
  return files.qrels === undefined ? noQrels : await readOrReport(files.qrels, readCollectionQrels, noQrels);
}

export function emptyTexts(): IdTexts {
  return { texts: new Map(), errors: [] };
}

/** A file that cannot be read becomes one error in the result, not an exception. */
export async function readOrReport<Result extends { errors: InputError[] }>(
  file: string,
  read: (file: string) => Promise<Result>,
  empty: Result,
): Promise<Result> {
  try {
    return await read(file);
  } catch (error) {
    const fileError = fileErrorFrom(file, error);
    if (fileError === undefined) throw error;
    return { ...empty, errors: [fileError] };
  }
}
