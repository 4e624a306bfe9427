import type { Result } from '../schema/result.js';

/** Why the view has no answer to a request: the HTTP status the request gets, and the message shown with it. */
export interface ViewRefusal<Status extends number> {
  readonly status: Status;
  readonly message: string;
}

/** A value the view looked for: found, or why not. */
export type Found<Value> = Result<Value, ViewRefusal<404 | 500>>;

export function found<Value>(value: Value): Found<Value> {
  return { ok: true, value };
}

export function missing(message: string): Found<never> {
  return { ok: false, error: { status: 404, message } };
}

/** A store object that is there but cannot be read: the store's fault, not the request's. */
export function unreadable(message: string): Found<never> {
  return { ok: false, error: { status: 500, message } };
}
