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
