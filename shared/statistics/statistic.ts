import type { Result } from '../schema/result.js';

/**
 * A statistic that may be undefined for its input (kappa when chance agreement
 * is 1, a correlation of constant values): either a finite value, or the
 * reason there is none (`error`). Never NaN.
 */
export type Statistic = Result<number>;

export function definedAs(value: number): Statistic {
  return { ok: true, value };
}

export function undefinedBecause(reason: string): Statistic {
  return { ok: false, error: reason };
}
