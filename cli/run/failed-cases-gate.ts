import type { Report } from '../../shared/schema/report.js';
import { UsageError } from '../usage-error.js';

/**
 * How many cases a run may leave unevaluated (failed, or missing at its
 * deadline) and still pass: a count, or a percentage of its cases kept as
 * an exact decimal (`digits / 10^decimals` percent), so 2.3% of 3,000 cases
 * allows 69 (in floating point, 2.3 * 3000 is 6899.999...).
 */
export type FailedCasesAllowance =
  | { readonly kind: 'count'; readonly count: number }
  | { readonly kind: 'percent'; readonly text: string; readonly digits: bigint; readonly decimals: number };

/** `--max-failed N|P%`, as commander shows it in --help. */
export const MAX_FAILED_FLAGS = '--max-failed <n|p%>';
export const MAX_FAILED_DESCRIPTION =
  'exit 1 when more cases than this failed or are missing: a count of cases (default 0: any failed case fails the command) or a percentage of them, e.g. 5%';

/** A case that failed is as bad for a gate as a missing one: both are cases the report holds no metrics for. */
export type GatedCases = Pick<Report, 'cases' | 'failed_cases' | 'missing_cases'>;

/** `--max-failed` as an allowance: a count from 0 and up, or a percentage from 0% to 100%; absent, 0. */
export function maxFailedOf(value: string | undefined): FailedCasesAllowance {
  if (value === undefined) return { kind: 'count', count: 0 };
  const count = /^\s*(\d+)\s*$/.exec(value);
  if (count !== null && Number.isSafeInteger(Number(count[1]))) return { kind: 'count', count: Number(count[1]) };
  const percent = /^\s*(\d+)(?:\.(\d+))?\s*%\s*$/.exec(value);
  if (percent !== null) {
    const whole = percent[1] ?? '0';
    const fraction = percent[2] ?? '';
    const digits = BigInt(whole + fraction);
    if (digits <= 100n * 10n ** BigInt(fraction.length)) {
      return { kind: 'percent', text: `${whole}${fraction === '' ? '' : `.${fraction}`}%`, digits, decimals: fraction.length };
    }
  }
  throw new UsageError(
    `--max-failed got "${value}"; expected a number of cases from 0 and up (e.g. 3) or a percentage of the cases from 0% to 100% (e.g. 5%)`,
  );
}

/**
 * The gate on cases without a result: why the run fails it, as one line, or
 * undefined when its failed and missing cases are within `allowance`.
 */
export function tooManyFailed(report: GatedCases, allowance: FailedCasesAllowance): string | undefined {
  const { total, failed, missing } = report.cases;
  const unevaluated = failed + missing;
  if (unevaluated === 0 || within(unevaluated, total, allowance)) return undefined;
  const limit = `more than --max-failed ${allowance.kind === 'count' ? allowance.count : allowance.text}`;
  const first = report.failed_cases[0];
  const example = first !== undefined ? `the first: ${first.case_id}: ${first.error}` : `the first: ${report.missing_cases[0] ?? ''}`;
  return `${unevaluatedText(total, failed, missing)} (${limit}); ${example}; the report lists them all (report.json ${listsOf(failed, missing)})`;
}

function within(unevaluated: number, total: number, allowance: FailedCasesAllowance): boolean {
  if (allowance.kind === 'count') return unevaluated <= allowance.count;
  // unevaluated / total <= digits / 10^decimals / 100, in integers.
  return BigInt(unevaluated) * 100n * 10n ** BigInt(allowance.decimals) <= allowance.digits * BigInt(total);
}

function unevaluatedText(total: number, failed: number, missing: number): string {
  const ofTotal = `of ${total} ${total === 1 ? 'case' : 'cases'}`;
  const deadline = `the run's deadline passed before ${missing === 1 ? 'it' : 'they'} ended`;
  if (missing === 0) return `${failed} ${ofTotal} failed`;
  if (failed === 0) return `${missing} ${ofTotal} ${missing === 1 ? 'is' : 'are'} missing: ${deadline}`;
  return `${failed + missing} ${ofTotal} were not evaluated, ${failed} failed and ${missing} missing (${deadline})`;
}

function listsOf(failed: number, missing: number): string {
  if (missing === 0) return 'failed_cases';
  return failed === 0 ? 'missing_cases' : 'failed_cases and missing_cases';
}
