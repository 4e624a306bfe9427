/** The fields of a qrels line, split at runs of whitespace (run lines follow shared/trec/run-line.ts instead). */
export function splitTrecFields(text: string): string[] {
  const trimmed = text.trim();
  return trimmed === '' ? [] : trimmed.split(/\s+/);
}

/** An integer written in a TREC file (a grade), or undefined. */
export function parseTrecInteger(text: string): number | undefined {
  return /^[+-]?\d+$/.test(text) ? Number(text) : undefined;
}

/** Why a line of a TREC file could not be read. */
export interface LineProblem {
  field?: string;
  message: string;
  fix: string;
}
