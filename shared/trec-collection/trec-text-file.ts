import { extname } from 'node:path';
import type { InputError } from '../schema/input-error.js';
import { readLines } from '../readers/text-lines.js';
import { isPlainObject } from '../readers/reader-event.js';

/** Texts by id, read from a corpus or a queries file. */
export interface IdTexts {
  texts: Map<string, string>;
  errors: InputError[];
}

const ID_KEYS = ['_id', 'id', 'docid', 'doc_id', 'qid', 'query_id'] as const;
const TEXT_KEYS = ['text', 'contents', 'content', 'query'] as const;
const JSONL_EXTENSIONS: ReadonlySet<string> = new Set(['.jsonl', '.ndjson', '.json']);
const LINE_FORMATS = `write one {"_id": "...", "text": "..."} object per line (JSONL), or id<TAB>text (TSV)`;

/**
 * Reads a corpus (docid → text) or a queries file (qid → text), as JSONL
 * (`{"_id"|"id"|"docid"|"doc_id", "text"|"contents"|"content", "title"?}`, the
 * BEIR and Pyserini shapes) or TSV (`id<TAB>text`, the MS MARCO shape). A title
 * is put on its own line before the text. The format comes from the extension
 * (.jsonl, .ndjson and .json are read one object per line; .tsv and .tab as TSV),
 * else from the first line. When `wanted` is given only those ids are kept, so
 * a corpus far larger than memory can be read for the few documents a run needs.
 */
export async function readIdTexts(file: string, wanted?: ReadonlySet<string>): Promise<IdTexts> {
  const result: IdTexts = { texts: new Map(), errors: [] };
  let jsonl: boolean | undefined = JSONL_EXTENSIONS.has(extname(file).toLowerCase()) ? true : undefined;
  if (['.tsv', '.tab'].includes(extname(file).toLowerCase())) jsonl = false;
  for await (const { line, text } of readLines(file)) {
    if (text.trim() === '') continue;
    jsonl ??= text.trimStart().startsWith('{');
    const entry = jsonl ? parseJsonLine(text) : parseTsvLine(text);
    if (typeof entry === 'string') {
      result.errors.push({ file, line, message: entry, fix: LINE_FORMATS });
      continue;
    }
    if (wanted !== undefined && !wanted.has(entry.id)) continue;
    if (result.texts.has(entry.id)) {
      result.errors.push({
        file,
        line,
        field: 'id',
        message: `id ${entry.id} appears twice; the first text is kept`,
        fix: 'give each id one line',
      });
      continue;
    }
    result.texts.set(entry.id, entry.text);
  }
  return result;
}

/** The entry, or why the line is not one. */
function parseJsonLine(text: string): { id: string; text: string } | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not valid JSON';
  }
  if (!isPlainObject(value)) return 'expected a JSON object';
  const idKey = ID_KEYS.find((key) => typeof value[key] === 'string' || typeof value[key] === 'number');
  const textKey = TEXT_KEYS.find((key) => typeof value[key] === 'string');
  if (idKey === undefined) return `no id: expected one of ${ID_KEYS.join(', ')}`;
  if (textKey === undefined) return `no text: expected one of ${TEXT_KEYS.join(', ')}`;
  const title = typeof value.title === 'string' && value.title.trim() !== '' ? `${value.title}\n` : '';
  return { id: String(value[idKey]), text: title + String(value[textKey]) };
}

function parseTsvLine(text: string): { id: string; text: string } | string {
  const tab = text.indexOf('\t');
  if (tab <= 0) return 'expected an id, a tab, then the text';
  return { id: text.slice(0, tab).trim(), text: text.slice(tab + 1) };
}
