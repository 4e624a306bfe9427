import type { InputError } from './input-error.js';

/**
 * `file:line: field "name": message (fix: ...)`. Apart from the schema so that
 * a caller that only prints errors (ir-metrics) does not load zod at start-up.
 */
export function formatInputError(error: InputError): string {
  const where = error.line > 0 ? `${error.file}:${error.line}` : error.file;
  const field = error.field === undefined ? '' : ` field "${error.field}":`;
  return `${where}:${field} ${error.message} (fix: ${error.fix})`;
}
