import type { ExpectedDocument, RetrievedChunk } from '../schema/eval-case.js';
import type { InputError } from '../schema/input-error.js';
import { checkedErrors, checkedValue, type Checked } from './checked.js';
import { contentDocUri } from './content-ids.js';
import type { ExpectedDocumentInput, RetrievedChunkInput } from './row-schema.js';

/** Where a list of documents sits in the file, for error messages. */
export interface ListSource {
  file: string;
  line: number;
  /** The list's field name as the user wrote it (`contexts`, `dataList`). */
  listName: string;
  /** The name of the aligned id list (`retrieved_context_ids`), when one was given. */
  idsName?: string;
}

// Aliases in order of preference; an alias not chosen is kept in metadata.
const ID_KEYS = ['doc_uri', 'doc_id', 'id'] as const;
const CONTENT_KEYS = ['content', 'text', 'page_content'] as const;
const INTERPRETED_KEYS: ReadonlySet<string> = new Set(['metadata', 'score', 'rank', 'grade']);

interface ResolvedDocument {
  doc_uri: string;
  content?: string;
  metadata?: Record<string, unknown>;
}

type DocumentInput = RetrievedChunkInput | ExpectedDocumentInput;

/**
 * A retrieved list in rank order. Rank is the list position unless every chunk
 * carries a rank, in which case the chunks are ordered by it. Scores never
 * reorder the list: the engine's order is what was shown to the user, and a
 * score without a rank says nothing about how ties were broken.
 */
export function toRetrievedChunks(
  items: readonly RetrievedChunkInput[],
  ids: readonly string[] | undefined,
  source: ListSource,
): Checked<RetrievedChunk[]> {
  const errors: InputError[] = [...checkIdCount(items, ids, source)];
  const ranked = items.filter((item) => item.rank !== undefined).length;
  if (ranked > 0 && ranked < items.length) {
    const unranked = items.findIndex((item) => item.rank === undefined);
    errors.push(
      error(
        source,
        `${source.listName}[${unranked}].rank`,
        'rank is given on some chunks but not on this one',
        'give rank on every chunk, or on none to use list order',
      ),
    );
  }
  const seenRanks = new Set<number>();
  const chunks: RetrievedChunk[] = [];
  items.forEach((item, index) => {
    const resolved = resolveDocument(item, ids?.[index], source, index, errors);
    if (item.rank !== undefined && seenRanks.has(item.rank)) {
      errors.push(
        error(source, `${source.listName}[${index}].rank`, `rank ${item.rank} is given to two chunks`, 'give each chunk a different rank'),
      );
    }
    if (item.rank !== undefined) seenRanks.add(item.rank);
    chunks.push(withoutUndefined({ ...resolved, score: item.score, rank: item.rank ?? index + 1, metadata: resolved.metadata }));
  });
  if (errors.length > 0) return checkedErrors(errors);
  // Array.prototype.sort is stable, so this only moves chunks when ranks were given.
  return checkedValue(chunks.sort((left, right) => left.rank - right.rank));
}

export function toExpectedDocuments(
  items: readonly ExpectedDocumentInput[],
  ids: readonly string[] | undefined,
  source: ListSource,
): Checked<ExpectedDocument[]> {
  const errors: InputError[] = [...checkIdCount(items, ids, source)];
  const documents = items.map((item, index) => {
    const resolved = resolveDocument(item, ids?.[index], source, index, errors);
    return withoutUndefined({ ...resolved, grade: item.grade, metadata: resolved.metadata });
  });
  return errors.length > 0 ? checkedErrors(errors) : checkedValue(documents);
}

function checkIdCount(items: readonly unknown[], ids: readonly string[] | undefined, source: ListSource): InputError[] {
  if (ids === undefined || ids.length === items.length) return [];
  const idsName = source.idsName ?? 'ids';
  return [
    error(
      source,
      idsName,
      `has ${ids.length} ids but ${source.listName} has ${items.length} entries`,
      `give exactly one id per entry of ${source.listName}, in the same order`,
    ),
  ];
}

function resolveDocument(
  item: DocumentInput,
  alignedId: string | undefined,
  source: ListSource,
  index: number,
  errors: InputError[],
): ResolvedDocument {
  const idKey = ID_KEYS.find((key) => item[key] !== undefined);
  const contentKey = CONTENT_KEYS.find((key) => item[key] !== undefined);
  const ownId = idKey === undefined ? undefined : item[idKey];
  const content = contentKey === undefined ? undefined : item[contentKey];
  if (ownId !== undefined && alignedId !== undefined && ownId !== alignedId) {
    errors.push(
      error(
        source,
        `${source.listName}[${index}].${idKey ?? 'doc_uri'}`,
        `"${ownId}" disagrees with ${source.idsName ?? 'the id list'} ("${alignedId}")`,
        'give the id in one place only',
      ),
    );
  }
  const docUri = ownId ?? alignedId ?? (content === undefined ? undefined : contentDocUri(content));
  if (docUri === undefined) throw new Error('row schema let through a document with neither id nor content');
  const metadata: Record<string, unknown> = { ...item.metadata };
  for (const [key, value] of Object.entries(item)) {
    if (value !== undefined && key !== idKey && key !== contentKey && !INTERPRETED_KEYS.has(key)) metadata[key] = value;
  }
  return { doc_uri: docUri, content, metadata: Object.keys(metadata).length > 0 ? metadata : undefined };
}

function error(source: ListSource, field: string, message: string, fix: string): InputError {
  return { file: source.file, line: source.line, field, message, fix };
}

/** Optional fields are left out rather than set to undefined, so cases compare and serialise cleanly. */
export function withoutUndefined<Value extends object>(value: Value): Value {
  const result: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) if (entry !== undefined) result[key] = entry;
  return result as Value;
}
