import type { InputError } from '../schema/input-error.js';

/** A value read from user input, or the reasons it could not be read. */
export type Checked<Value> = { ok: true; value: Value } | { ok: false; errors: InputError[] };

export function checkedValue<Value>(value: Value): Checked<Value> {
  return { ok: true, value };
}

export function checkedErrors<Value>(errors: InputError[]): Checked<Value> {
  return { ok: false, errors };
}
