import { ENGLISH_STOP_WORDS } from './stop-words.js';

/**
 * Content tokens of a text, for the lexical judges: the words that can tie a
 * request to a passage, in order, repeats kept.
 *
 * 1. NFKC normalisation, so that full-width "ＢＭ２５" and ligatures such as
 *    "ﬁ" read like the plain letters, then lower case.
 * 2. Words are runs of letters and digits (`\p{L}\p{N}`); combining marks may
 *    continue a word, since scripts such as Devanagari write vowels as marks
 *    that NFKC does not fold into the letter. Everything else separates.
 * 3. Han, Hiragana, Katakana and Hangul are written without spaces between
 *    words, so a run of them becomes overlapping character bigrams ("向量数据库"
 *    gives 向量 量数 数据 据库): any two-character word of the request then
 *    matches the same word in a passage without a dictionary. A run of one
 *    character is kept as that character.
 * 4. English stop words are dropped (see stop-words.ts) and English plurals lose
 *    their suffix (see stripPlural), only on tokens of the letters a-z.
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const [word] of text.normalize('NFKC').toLowerCase().matchAll(WORD)) {
    for (const segment of scriptSegments(word)) {
      if (segment.cjk) tokens.push(...characterBigrams(segment.text));
      else if (!ENGLISH_STOP_WORDS.has(segment.text)) tokens.push(stripPlural(segment.text));
    }
  }
  return tokens;
}

/** Whether a token came from CJK text (a bigram or a lone character), which the length of a passage counts apart. */
export function isCjkToken(token: string): boolean {
  // a segment starts where the script changes, so its first character tells
  return STARTS_CJK.test(token);
}

/**
 * Removes an English plural suffix, so that "databases" meets "database" and
 * "queries" meets "query". Deliberately light: both sides of a comparison go
 * through the same rule, so what matters is that singular and plural agree, not
 * that the result is a dictionary word.
 *
 * - words of three letters or fewer are left alone ("gas", "bus");
 * - "-ies" becomes "-y" when two or more letters come before it ("queries",
 *   but not "ties");
 * - "-es" goes after s, x, z, ch and sh ("classes", "indexes", "searches");
 * - otherwise a final "-s" goes, except after s, u or i ("class", "status",
 *   "analysis" are singular).
 */
export function stripPlural(token: string): string {
  if (token.length <= 3 || !PLAIN_LATIN.test(token)) return token;
  if (token.endsWith('ies')) return token.length > 4 ? `${token.slice(0, -3)}y` : token;
  if (SIBILANT_PLURAL.test(token)) return token.slice(0, -2);
  if (token.endsWith('s') && !KEPT_FINAL_S.test(token)) return token.slice(0, -1);
  return token;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
// Script_Extensions rather than Script: the length mark ー of "ラーメン" is in the
// Common script, shared by Hiragana and Katakana, and would otherwise cut the word.
const CJK_CHARACTER =
  '[\\p{Script_Extensions=Han}\\p{Script_Extensions=Hiragana}\\p{Script_Extensions=Katakana}\\p{Script_Extensions=Hangul}]';
const CJK = new RegExp(CJK_CHARACTER, 'u');
const STARTS_CJK = new RegExp(`^${CJK_CHARACTER}`, 'u');
const MARK = /\p{M}/u;
const PLAIN_LATIN = /^[a-z]+$/;
const SIBILANT_PLURAL = /(?:ss|x|z|ch|sh)es$/;
const KEPT_FINAL_S = /[siu]s$/;

interface Segment {
  readonly text: string;
  readonly cjk: boolean;
}

/** Splits a word where it passes between CJK and other scripts ("gpt模型" gives "gpt" and "模型"). */
function scriptSegments(word: string): Segment[] {
  const segments: Segment[] = [];
  let text = '';
  let cjk = false;
  for (const character of word) {
    // a combining mark belongs to the letter before it, whatever its script
    const characterIsCjk: boolean = MARK.test(character) ? cjk : CJK.test(character);
    if (text !== '' && characterIsCjk !== cjk) {
      segments.push({ text, cjk });
      text = '';
    }
    text += character;
    cjk = characterIsCjk;
  }
  if (text !== '') segments.push({ text, cjk });
  return segments;
}

function characterBigrams(text: string): string[] {
  // by code point, so that characters outside the Basic Multilingual Plane stay whole
  const characters = Array.from(text);
  if (characters.length === 1) return characters;
  const bigrams: string[] = [];
  for (let index = 0; index + 1 < characters.length; index++) {
    bigrams.push(`${characters[index]}${characters[index + 1]}`);
  }
  return bigrams;
}
