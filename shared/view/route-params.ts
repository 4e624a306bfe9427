import { z } from 'zod';

/**
 * The values a request may name, each by the rule that made it: a path or
 * query value that does not fit is refused before anything is read, so no
 * request text ever becomes part of a store key unchecked.
 */

/** A suite name as `--suite` takes it (cli/option-values.ts): it names folders of the store. */
export const suiteNameSchema = z
  .string()
  .max(100, 'a suite name has at most 100 characters')
  .regex(/^[A-Za-z0-9._-]+$/, 'a suite name is letters, digits, ".", "_" or "-"')
  .refine((name) => name !== '.' && name !== '..', 'a suite name cannot be "." or ".."');

/** A run id as `assay run` prints it. */
export const runIdSchema = z.string().regex(/^r-[0-9a-f]{16}$/, 'a run id is r- and 16 hexadecimal digits');

/** An engine or metric name chosen on the compare page: matched against the runs' own names, never used in a key. */
export const nameSchema = z.string().min(1, 'a name is not empty').max(1000, 'a name has at most 1000 characters');

/** Decimal digits, nothing else: no sign, no space, no `0x`, no exponent, not empty. */
function decimal(name: string) {
  return z
    .string()
    .regex(/^[0-9]+$/, `${name} is a whole number written in decimal digits (0-9)`)
    .transform(Number);
}

/** The first row of a page. */
export const offsetSchema = decimal('offset').pipe(z.number().max(1e9, 'offset is at most 1000000000')).default(0);

/** Rows a page shows at most. */
export function limitSchema(fallback: number, maximum: number, name = 'limit') {
  return decimal(name)
    .pipe(z.number().min(1, `${name} is 1 or more`).max(maximum, `${name} is at most ${maximum}`))
    .default(fallback);
}
