import { z } from 'zod';

/**
 * A ranked list kept as columns: document ids in rank order, their scores
 * (null where the engine gave none) and, when any document has one, their
 * human grades (null for an unlabelled document); the rank is the position
 * plus one. It is how the pipeline's own records (claim-checked cases, case
 * results) carry long lists: a sweep's case holds thousands of documents per
 * engine, and a list of objects costs several times more to write, read back
 * and check than two arrays of plain values. Datasets and cases.jsonl keep
 * the object form (`{doc_uri, rank, score}`), which people read.
 */
/** One chunk of a ranked list in object form, as far as the compact form keeps it. */
export interface RankedDocument {
  readonly doc_uri: string;
  readonly rank: number;
  readonly score?: number;
  /** The human label of the document for the case, when it has one. */
  readonly human_grade?: number;
}

// Columns are checked with one loop each rather than a schema per element: a list of 10^6 ids is checked in milliseconds.
const documentIdsSchema = z.custom<string[]>(
  (value) => Array.isArray(value) && value.every((id) => typeof id === 'string' && id.length > 0),
  'doc_uris must be a list of non-empty document ids',
);
const scoresSchema = z.custom<(number | null)[]>(
  (value) => Array.isArray(value) && value.every((score) => score === null || (typeof score === 'number' && Number.isFinite(score))),
  'scores must be a list of finite numbers or null',
);

const gradesSchema = z.custom<(number | null)[]>(
  (value) => Array.isArray(value) && value.every((grade) => grade === null || Number.isInteger(grade)),
  'human_grades must be a list of whole numbers or null',
);

export const compactRankingSchema = z
  .object({ doc_uris: documentIdsSchema, scores: scoresSchema, human_grades: gradesSchema.optional() })
  .refine(
    (ranking) =>
      ranking.doc_uris.length === ranking.scores.length &&
      (ranking.human_grades === undefined || ranking.human_grades.length === ranking.doc_uris.length),
    'doc_uris, scores and human_grades must have one entry per document',
  );
export type CompactRanking = z.infer<typeof compactRankingSchema>;

/**
 * The compact form of a list whose chunks carry nothing but a document id, a
 * score, a human grade and their position as rank (1, 2, 3, ...); undefined for any other
 * list (text, metadata or gaps in the ranks), which keeps its object form.
 */
export function compactRanking(chunks: readonly RankedDocument[]): CompactRanking | undefined {
  const documentIds = new Array<string>(chunks.length);
  const scores = new Array<number | null>(chunks.length);
  const grades = new Array<number | null>(chunks.length);
  let graded = false;
  for (const [index, chunk] of chunks.entries()) {
    if (chunk.rank !== index + 1 || !onlyRankingFields(chunk)) return undefined;
    documentIds[index] = chunk.doc_uri;
    scores[index] = chunk.score ?? null;
    grades[index] = chunk.human_grade ?? null;
    graded ||= chunk.human_grade !== undefined;
  }
  return graded ? { doc_uris: documentIds, scores, human_grades: grades } : { doc_uris: documentIds, scores };
}

/**
 * The compact form of a ranked list as its document ids, ranks and scores
 * alone, each document's human grade from `gradeOf`: compactRanking of those
 * fields, built without an object per document. Undefined when the ranks
 * are not the positions (1, 2, 3, ...).
 */
export function rankingOf(
  chunks: readonly { readonly doc_uri: string; readonly rank: number; readonly score?: number | undefined }[],
  gradeOf: (documentId: string) => number | undefined,
): CompactRanking | undefined {
  const documentIds = new Array<string>(chunks.length);
  const scores = new Array<number | null>(chunks.length);
  const grades = new Array<number | null>(chunks.length);
  let graded = false;
  for (let index = 0; index < chunks.length; index++) {
    const chunk = chunks[index] as (typeof chunks)[number];
    if (chunk.rank !== index + 1) return undefined;
    documentIds[index] = chunk.doc_uri;
    scores[index] = chunk.score ?? null;
    const grade = gradeOf(chunk.doc_uri);
    grades[index] = grade ?? null;
    graded ||= grade !== undefined;
  }
  return graded ? { doc_uris: documentIds, scores, human_grades: grades } : { doc_uris: documentIds, scores };
}

/** The object form of a compact list: rank = position + 1, no score or grade where it was null. */
export function expandRanking(ranking: CompactRanking): RankedDocument[] {
  const { doc_uris: documentIds, scores, human_grades: grades } = ranking;
  const documents: RankedDocument[] = new Array(documentIds.length);
  // Each shape written out (no spread of a conditional object): a sweep's case expands thousands of documents.
  for (let index = 0; index < documentIds.length; index++) {
    const doc_uri = documentIds[index] as string;
    const rank = index + 1;
    const score = scores[index] ?? undefined;
    const human_grade = grades?.[index] ?? undefined;
    if (human_grade === undefined) documents[index] = score === undefined ? { doc_uri, rank } : { doc_uri, rank, score };
    else documents[index] = score === undefined ? { doc_uri, rank, human_grade } : { doc_uri, rank, score, human_grade };
  }
  return documents;
}

function onlyRankingFields(chunk: object): boolean {
  for (const key in chunk) {
    if (key !== 'doc_uri' && key !== 'rank' && key !== 'score' && key !== 'human_grade') return false;
  }
  return true;
}
