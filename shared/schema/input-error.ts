import { z } from 'zod';

/**
 * A problem with one row (or line) of an input file. Loaders yield these as
 * values beside the good rows: a bad row never stops the others unless the
 * caller asked for strict mode.
 */
export const inputErrorSchema = z.object({
  file: z.string(),
  /** 1-based line where the bad row starts; 0 when the problem is the file as a whole. */
  line: z.number().int().nonnegative(),
  /** Field (or column) at fault, when one can be named. */
  field: z.string().optional(),
  message: z.string(),
  /** What the user should change to fix it. */
  fix: z.string(),
});
export type InputError = z.infer<typeof inputErrorSchema>;

export { formatInputError } from './format-input-error.js';
