import type { InputError } from '../schema/input-error.js';

/**
 * Row fields, tags and metadata are user data held in plain objects. Names
 * such as `constructor` or `toString` must read as the user's keys and not
 * as Object.prototype's, so lookups check own properties only; `__proto__`
 * cannot be kept at all (an assignment sets the object's prototype instead,
 * and zod records drop it), so a row that uses it is rejected with the path.
 */
export const RESERVED_KEY = '__proto__';

export function hasOwnKey(record: object, key: string): boolean {
  return Object.hasOwn(record, key);
}

/** Sets an own property: defined rather than assigned, so no name (not even __proto__) reaches a setter. */
export function setOwnKey(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The path of the first `__proto__` key in a parsed JSON value, or undefined; no recursion. */
export function findReservedKey(value: unknown): string | undefined {
  // Most rows have none: look without building paths, and build them only for a row that has one.
  if (!holdsReservedKey(value)) return undefined;
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: current, path } = next;
    if (Array.isArray(current)) {
      for (const [index, item] of current.entries()) pending.push({ value: item, path: `${path}[${index}]` });
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        const keyPath = path === '' ? key : `${path}.${key}`;
        if (key === RESERVED_KEY) return keyPath;
        pending.push({ value: item, path: keyPath });
      }
    }
  }
  return undefined;
}

function holdsReservedKey(value: unknown): boolean {
  const pending: unknown[] = [value];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    if (Array.isArray(current)) {
      for (const item of current) if (typeof item === 'object' && item !== null) pending.push(item);
    } else if (typeof current === 'object' && current !== null) {
      if (Object.hasOwn(current, RESERVED_KEY)) return true;
      for (const item of Object.values(current)) if (typeof item === 'object' && item !== null) pending.push(item);
    }
  }
  return false;
}

export function reservedKeyError(file: string, line: number, path: string): InputError {
  return {
    file,
    line,
    field: path,
    message: `the key "${RESERVED_KEY}" cannot be kept as data`,
    fix: `rename the key "${RESERVED_KEY}" (for example to "proto")`,
  };
}
