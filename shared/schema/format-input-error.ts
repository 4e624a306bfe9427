/** The fields of an input error (input-error.ts) that its one-line form shows. */
export interface PrintedInputError {
  readonly file: string;
  readonly line: number;
  readonly field?: string | undefined;
  readonly message: string;
  readonly fix: string;
}

/**
 * `file:line: field "name": message (fix: ...)`. Apart from the schema so that
 * a caller that only prints errors (ir-metrics) does not load zod at start-up.
 */
export function formatInputError(error: PrintedInputError): string {
  const where = error.line > 0 ? `${error.file}:${error.line}` : error.file;
  const field = error.field === undefined ? '' : ` field "${error.field}":`;
  return `${where}:${field} ${error.message} (fix: ${error.fix})`;
}
