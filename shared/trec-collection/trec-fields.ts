/** TREC files separate fields by any run of spaces and tabs, as trec_eval's scanf does. */
export function splitTrecFields(text: string): string[] {
  const trimmed = text.trim();
  return trimmed === '' ? [] : trimmed.split(/\s+/);
}

/** An integer written in a TREC file (a grade), or undefined. */
export function parseTrecInteger(text: string): number | undefined {
  return /^[+-]?\d+$/.test(text) ? Number(text) : undefined;
}

/** A score: any finite decimal number ("2", "2.0", "2e0" and "+2" are all the same score). */
export function parseTrecScore(text: string): number | undefined {
  const value = Number(text);
  return text.trim() !== '' && Number.isFinite(value) ? value : undefined;
}

/** Why a line of a TREC file could not be read. */
export interface LineProblem {
  field?: string;
  message: string;
  fix: string;
}

/** Whether a UTF-16 code unit is whitespace as the regular expression `\s` means it. */
export function isWhitespace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

/**
 * splitTrecFields without making the fields: writes the start and end of the
 * first `bounds.length / 2` fields into `bounds` (start of field i at 2i, end
 * at 2i + 1) and returns how many fields the line has. For files of millions
 * of lines, where only some fields are needed.
 */
export function scanTrecFields(text: string, bounds: Int32Array): number {
  const slots = bounds.length >> 1;
  const length = text.length;
  let count = 0;
  let index = 0;
  while (index < length) {
    while (index < length && isWhitespace(text.charCodeAt(index))) index++;
    if (index >= length) break;
    if (count < slots) bounds[2 * count] = index;
    while (index < length && !isWhitespace(text.charCodeAt(index))) index++;
    if (count < slots) bounds[2 * count + 1] = index;
    count++;
  }
  return count;
}
