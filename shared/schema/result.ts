/**
 * A value, or why there is none: what a function gives back when failing is
 * expected (input that may be wrong, a stored record, a queue message, a
 * judge's answer, a definition from the config), so the caller decides
 * whether that is a poison message, a record left out, or an error to show.
 * `error` is a sentence a user can read unless `Failure` says otherwise: a
 * failure that carries more than a sentence (the line, the field and the
 * fix of an input error, an HTTP status) is a value of its own type there,
 * never extra fields beside `error`. A check that has nothing to give back
 * on success is a `Result<undefined>`.
 */
export type Result<Value, Failure = string> = { ok: true; value: Value } | Failed<Failure>;

/** A Result's failure arm alone: what a step that can only fail, or go on, gives back when it fails. */
export type Failed<Failure = string> = { ok: false; error: Failure };
