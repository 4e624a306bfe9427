import type { z } from 'zod';

/**
 * A command's `--json` output, checked against its schema (shared/schema/),
 * which is the output's contract: the value must parse, and the schema must
 * give it back as it is, every field held and in the schema's order, so the
 * schema describes the printed bytes exactly. A value that fails either is a
 * bug of assay, and throws. Indented two spaces, without the final line break.
 */
export function checkedJson<Schema extends z.ZodType>(schema: Schema, value: z.input<Schema>): string {
  const text = JSON.stringify(value, null, 2);
  if (JSON.stringify(schema.parse(value), null, 2) !== text) {
    throw new Error('The JSON to print holds what its schema does not: a field the schema lacks, or one out of its order');
  }
  return text;
}
