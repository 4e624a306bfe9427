import { datasetFormatFromName, type DatasetFormat } from './dataset-format.js';
import { readLines } from '../readers/text-lines.js';
import { splitTrecFields } from '../trec-collection/trec-fields.js';

/** What an input file holds: a dataset in one of its formats, or a TREC qrels or run file. */
export type InputKind = DatasetFormat | 'qrels' | 'run';

/**
 * Tells what a file holds from its extension, else from its first non-blank
 * line: `[` starts a JSON array, `{` a JSONL row, four fields a qrels line
 * (`qid iter docno grade`), six or more a run line (`qid Q0 docno rank score
 * tag`). Undefined when the file does not say (the caller asks for a format).
 */
export async function sniffInputKind(file: string): Promise<InputKind | undefined> {
  const byName = datasetFormatFromName(file);
  if (byName !== undefined) return byName;
  for await (const { text } of readLines(file)) {
    const trimmed = text.trim();
    if (trimmed === '') continue;
    if (trimmed.startsWith('[')) return 'json';
    if (trimmed.startsWith('{')) return 'jsonl';
    const fields = splitTrecFields(trimmed).length;
    if (fields === 4) return 'qrels';
    if (fields >= 6) return 'run';
    return undefined;
  }
  return undefined;
}
