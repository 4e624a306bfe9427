/** A value the view looked for: found, or why not, as the HTTP status and message the request gets. */
export type Found<Value> =
  | { readonly ok: true; readonly value: Value }
  | { readonly ok: false; readonly status: 404 | 500; readonly message: string };

export function found<Value>(value: Value): Found<Value> {
  return { ok: true, value };
}

export function missing(message: string): Found<never> {
  return { ok: false, status: 404, message };
}

/** A store object that is there but cannot be read: the store's fault, not the request's. */
export function unreadable(message: string): Found<never> {
  return { ok: false, status: 500, message };
}
