import { isCjkToken } from './tokenize.js';

/**
 * How much of a request a passage covers, term by term, with the
 * term-frequency saturation and length normalisation of BM25 (Robertson and
 * Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009):
 *
 *   K         = k1 · (1 - b + b · |D| / avgdl)
 *   credit(t) = min(1, f(t, D) · (k1 + 1) / (f(t, D) + K))
 *   coverage  = Σ_t w(t) · credit(t) / Σ_t w(t)
 *
 * over the distinct terms t of the request, where f(t, D) is how often t
 * occurs in the passage D and |D| is the passage's length in words.
 *
 * BM25's saturated term frequency equals 1 for a single mention in a passage
 * of average length; credit(t) caps it there. So a term mentioned once in a
 * passage of average length or shorter counts in full, and in a longer passage
 * it needs more mentions to count in full: one passing mention of a term in a
 * long passage is weaker evidence than the same mention in a short one.
 *
 * w(t) = 1 for every term. BM25 would weigh terms by their inverse document
 * frequency, which needs a corpus the judge does not have. Term length is a
 * tempting stand-in (rare words tend to be long), but it misreads exactly the
 * terms that matter most in search requests: version numbers, codes and
 * acronyms ("v2", "5g", "bm25") are short and specific, and every CJK bigram has
 * the same length. The stop-word list already drops the words IDF would weigh
 * near zero. Equal weights also keep the verdict countable: "4 of 6 terms".
 *
 * A request without content terms covers nothing: coverage 0, not 0/0.
 */

/** k1: how fast repeated mentions stop adding weight (the usual BM25 default). */
export const SATURATION = 1.2;
/** b: how much the passage length discounts a mention (the usual BM25 default). */
export const LENGTH_NORMALISATION = 0.75;
/**
 * avgdl, in words after stop-word removal. A corpus would give it; without one
 * it is a typical chunk: about 1,000 characters of English prose (a common
 * splitter default) is about 170 words, of which about 100 remain once stop
 * words are dropped.
 */
export const AVERAGE_PASSAGE_LENGTH = 100;
/**
 * The length one CJK bigram adds to a passage. A run of n CJK characters gives
 * about n bigrams, but Chinese words average close to two characters, so
 * counting bigrams as whole words would make a CJK passage look twice as long
 * as an English one of the same content and discount its mentions too much.
 */
export const CJK_TOKEN_LENGTH = 0.5;

export interface TermCoverage {
  /** Distinct content terms of the request. */
  readonly terms: number;
  /** Of those, how many occur at least once in the passage. */
  readonly found: number;
  /** The weighted coverage in [0, 1], as defined above. */
  readonly coverage: number;
  /** |D|, the passage length used for the length normalisation. */
  readonly passageLength: number;
}

export function termCoverage(requestTokens: readonly string[], passageTokens: readonly string[]): TermCoverage {
  const terms = new Set(requestTokens);
  const frequencies = countTokens(passageTokens);
  const length = passageLength(passageTokens);
  let found = 0;
  let credits = 0;
  for (const term of terms) {
    const frequency = frequencies.get(term) ?? 0;
    if (frequency === 0) continue;
    found++;
    credits += termCredit(frequency, length);
  }
  const coverage = terms.size === 0 ? 0 : credits / terms.size;
  return { terms: terms.size, found, coverage, passageLength: length };
}

/** credit(t) for a term that occurs `frequency` times in a passage of `length` words. */
export function termCredit(frequency: number, length: number): number {
  if (frequency <= 0) return 0;
  const lengthFactor = SATURATION * (1 - LENGTH_NORMALISATION + (LENGTH_NORMALISATION * length) / AVERAGE_PASSAGE_LENGTH);
  return Math.min(1, (frequency * (SATURATION + 1)) / (frequency + lengthFactor));
}

/** |D| in words: other tokens count 1, CJK tokens count CJK_TOKEN_LENGTH. */
export function passageLength(tokens: readonly string[]): number {
  let length = 0;
  for (const token of tokens) length += isCjkToken(token) ? CJK_TOKEN_LENGTH : 1;
  return length;
}

function countTokens(tokens: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}
