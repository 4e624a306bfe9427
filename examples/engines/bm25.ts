/**
 * Okapi BM25 over a small in-memory collection: the system under test of the
 * example engine, written out plainly. Score of document d for query q:
 *
 *   sum over query terms t of idf(t) * tf(t,d) * (k1 + 1) / (tf(t,d) + k1 * (1 - b + b * |d| / avgdl))
 *   idf(t) = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))
 *
 * with N documents, df(t) documents containing t, |d| the length of d in
 * tokens and avgdl the mean length (Robertson and Zaragoza 2009; the idf is
 * Lucene's, which stays positive).
 */

export interface Document {
  readonly id: string;
  readonly title: string;
  readonly text: string;
}

export type Field = 'title' | 'text';

export interface SearchParameters {
  readonly k1: number;
  readonly b: number;
  readonly size: number;
  readonly fields: readonly Field[];
}

export interface ScoredDocument {
  readonly document: Document;
  readonly score: number;
}

const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'do',
  'does',
  'for',
  'from',
  'how',
  'i',
  'in',
  'is',
  'it',
  'my',
  'of',
  'on',
  'or',
  'so',
  'the',
  'to',
  'what',
  'when',
  'why',
  'with',
]);

export function tokenize(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((token) => !STOP_WORDS.has(token));
}

interface FieldIndex {
  readonly termCounts: readonly Map<string, number>[];
  readonly lengths: readonly number[];
  readonly averageLength: number;
  readonly documentFrequency: ReadonlyMap<string, number>;
}

export class Bm25Index {
  private readonly indexes = new Map<string, FieldIndex>();

  constructor(private readonly documents: readonly Document[]) {}

  search(query: string, parameters: SearchParameters): ScoredDocument[] {
    const index = this.indexFor(parameters.fields);
    const terms = [...new Set(tokenize(query))];
    const total = this.documents.length;
    const scored = this.documents.map((document, position) => {
      const counts = index.termCounts[position] ?? new Map<string, number>();
      const length = index.lengths[position] ?? 0;
      let score = 0;
      for (const term of terms) {
        const frequency = counts.get(term) ?? 0;
        if (frequency === 0) continue;
        const documentFrequency = index.documentFrequency.get(term) ?? 0;
        const idf = Math.log(1 + (total - documentFrequency + 0.5) / (documentFrequency + 0.5));
        const norm = parameters.k1 * (1 - parameters.b + (parameters.b * length) / index.averageLength);
        score += (idf * frequency * (parameters.k1 + 1)) / (frequency + norm);
      }
      return { document, score };
    });
    return scored
      .filter((entry) => entry.score > 0)
      .sort((left, right) => right.score - left.score || left.document.id.localeCompare(right.document.id))
      .slice(0, parameters.size);
  }

  private indexFor(fields: readonly Field[]): FieldIndex {
    const key = [...fields].sort().join(',');
    const cached = this.indexes.get(key);
    if (cached !== undefined) return cached;
    const termCounts = this.documents.map((document) => {
      const counts = new Map<string, number>();
      for (const token of fields.flatMap((field) => tokenize(document[field]))) counts.set(token, (counts.get(token) ?? 0) + 1);
      return counts;
    });
    const lengths = termCounts.map((counts) => [...counts.values()].reduce((sum, count) => sum + count, 0));
    const documentFrequency = new Map<string, number>();
    for (const counts of termCounts) for (const term of counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, lengths.length) || 1;
    const index = { termCounts, lengths, averageLength, documentFrequency };
    this.indexes.set(key, index);
    return index;
  }
}
