import { extname } from 'node:path';

export const DATASET_FORMATS = ['jsonl', 'json', 'csv'] as const;
export type DatasetFormat = (typeof DATASET_FORMATS)[number];

const BY_EXTENSION: Readonly<Record<string, DatasetFormat>> = {
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.json': 'json',
  '.csv': 'csv',
};

/** The dataset format a file name implies, if any. */
export function datasetFormatFromName(file: string): DatasetFormat | undefined {
  return BY_EXTENSION[extname(file).toLowerCase()];
}

export function isDatasetFormat(name: string): name is DatasetFormat {
  return (DATASET_FORMATS as readonly string[]).includes(name);
}
