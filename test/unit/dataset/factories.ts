import { contentDocUri } from '../../../shared/rows/content-ids.js';
import { collectDataset, type CollectedDataset } from '../../../shared/rows/dataset-events.js';
import { loadDataset, type LoadDatasetOptions } from '../../../shared/dataset/load-dataset.js';
import type { EngineOutput, ExpectedDocument, RetrievedChunk } from '../../../shared/schema/eval-case.js';

/** A retrieved chunk given only as text, as every loader must build it. */
export function textChunk(content: string, rank: number): RetrievedChunk {
  return { doc_uri: contentDocUri(content), content, rank };
}

export function textDocument(content: string): ExpectedDocument {
  return { doc_uri: contentDocUri(content), content };
}

export function engineOutput(overrides: Partial<EngineOutput> = {}): EngineOutput {
  return { retrieved_context: [], tags: {}, ...overrides };
}

/** Loads a whole file into memory: fine for the small inputs of unit tests. */
export function loadAll(file: string, options: LoadDatasetOptions = {}): Promise<CollectedDataset> {
  return collectDataset(loadDataset(file, options));
}

/** JSONL text from row objects. */
export function jsonLines(rows: readonly object[]): string {
  return `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;
}
