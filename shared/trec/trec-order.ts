/**
 * trec_eval's ranking order on strings: score descending, equal scores by
 * document id in descending byte (strcmp) order (form_res_rels.c). Used where
 * documents are held as strings: dataset loading, tests. The ir-metrics path
 * compares raw bytes (see byte-string-table.ts), which is the same order.
 */

/** Negative when (scoreA, idA) ranks before (scoreB, idB). */
export function compareTrec(scoreA: number, idA: string, scoreB: number, idB: string): number {
  if (scoreA > scoreB) return -1;
  if (scoreA < scoreB) return 1;
  return compareBytes(idB, idA);
}

/**
 * Compares two strings in the byte order of their UTF-8 encodings (C strcmp),
 * which is Unicode code point order. JavaScript's `<` compares UTF-16 code
 * units, which differs for characters outside the Basic Multilingual Plane.
 */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const codeA = a.charCodeAt(index);
    const codeB = b.charCodeAt(index);
    if (codeA !== codeB) return codePointOrderKey(codeA) - codePointOrderKey(codeB);
  }
  return a.length - b.length;
}

/** Moves surrogates (code points above U+FFFF) above U+E000..U+FFFF, keeping the rest in order. */
function codePointOrderKey(codeUnit: number): number {
  if (codeUnit < 0xd800) return codeUnit;
  if (codeUnit <= 0xdfff) return codeUnit + 0x2000;
  return codeUnit - 0x800;
}
