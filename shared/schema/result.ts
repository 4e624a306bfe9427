/**
 * A value, or why there is none: what a reader gives back for input that may
 * be wrong (a stored record, a queue message, a judge's answer), so the caller
 * decides whether that is a poison message, a record left out, or an error to
 * show. `error` is a sentence a user can read, unless the reader says otherwise.
 */
export type Result<Value, Failure = string> = { ok: true; value: Value } | { ok: false; error: Failure };
