import type { Result } from '../../../../shared/schema/result.js';

/**
 * `count` distinct content words, "term0 term1 ...", starting at `first`. Each
 * is one token that no stop word or plural rule touches, so tests can build a
 * request and a passage that share exactly the number of terms they need.
 */
export function terms(count: number, first = 0): string {
  return Array.from({ length: count }, (_, index) => `term${first + index}`).join(' ');
}

/** `count` repeats of one word that no request in these tests contains, to give a passage length. */
export function filler(count: number): string {
  return Array.from({ length: count }, () => 'filler').join(' ');
}

/** A verdict or the error it should not be: fails the test with the error message. */
export function expectVerdict<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`expected a verdict, got the error "${result.error}"`);
  return result.value;
}
