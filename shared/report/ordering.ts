/**
 * The one order every report file uses for ids and metric names: UTF-16 code
 * units. Unlike `localeCompare` it is the same on every machine and locale,
 * so the same inputs give the same bytes.
 */
export function compareText(left: string, right: string): number {
  if (left < right) return -1;
  return left > right ? 1 : 0;
}

/** The keys of a record in report order. */
export function sortedKeys(record: object): string[] {
  return Object.keys(record).sort(compareText);
}

/**
 * A record with its keys inserted in report order. Built with
 * `Object.fromEntries`, so a key such as `__proto__` stays an ordinary key.
 * (JavaScript lists integer-like keys first whatever the insertion order;
 * that order is fixed too, so the output stays deterministic.)
 */
export function sortedRecord<Value>(entries: Iterable<readonly [string, Value]>): Record<string, Value> {
  return Object.fromEntries([...entries].sort(([left], [right]) => compareText(left, right)));
}
