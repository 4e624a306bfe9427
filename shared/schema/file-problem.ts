/**
 * Why a file a command reads back (report.json, cases.jsonl) is not valid:
 * the sentence, and the 1-based line at fault, absent when the problem is
 * the file as a whole. The caller adds where the file is.
 */
export interface FileProblem {
  readonly line?: number;
  readonly message: string;
}
