import { formatInputError, type InputError } from '../schema/input-error.js';

/**
 * Thrown in strict mode at the first bad row: the caller asked for all or
 * nothing. Carries the InputError so the caller can still report it precisely.
 */
export class DatasetError extends Error {
  override readonly name = 'DatasetError';

  constructor(readonly inputError: InputError) {
    super(formatInputError(inputError));
  }
}
