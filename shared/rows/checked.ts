import type { InputError } from '../schema/input-error.js';
import type { Result } from '../schema/result.js';

/** A value read from user input, or every reason it could not be read. */
export type Checked<Value> = Result<Value, InputError[]>;

export function checkedValue<Value>(value: Value): Checked<Value> {
  return { ok: true, value };
}

export function checkedErrors<Value>(errors: InputError[]): Checked<Value> {
  return { ok: false, error: errors };
}
