import { compareText } from '../../shared/report/ordering.js';
import type { Report } from '../../shared/schema/report.js';
import { UsageError } from '../usage-error.js';

/**
 * How many cases a run may leave without a full evaluation (failed, missing
 * at its deadline, or evaluated with some judgment that ended in error) and
 * still pass: a count, or a percentage of its cases kept as an exact decimal
 * (`digits / 10^decimals` percent), so 2.3% of 3,000 cases allows 69 (in
 * floating point, 2.3 * 3000 is 6899.999...).
 */
export type FailedCasesAllowance =
  | { readonly kind: 'count'; readonly count: number }
  | { readonly kind: 'percent'; readonly text: string; readonly digits: bigint; readonly decimals: number };

/** `--max-failed N|P%`, as commander shows it in --help. */
export const MAX_FAILED_FLAGS = '--max-failed <n|p%>';
export const MAX_FAILED_DESCRIPTION =
  'exit 1 when more cases than this failed, are missing, or lack a judgment (a judge answered no usable verdict): a count of cases (default 0: any such case fails the command) or a percentage of them, e.g. 5%';

/**
 * A case that failed is as bad for a gate as a missing one: both are cases the
 * report holds no metrics for. A case that lacks a judgment counts too: its
 * judge's averages leave it out, which is how a skewed average goes unseen.
 */
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
 * The gate on cases without a full evaluation: why the run fails it, as one
 * line, or undefined when its failed and missing cases and the cases that lack
 * a judgment (each case counted once) are within `allowance`.
 */
export function tooManyFailed(report: GatedCases, allowance: FailedCasesAllowance): string | undefined {
  const { total, failed, missing } = report.cases;
  const judgeFailed = report.cases.judge_failed ?? 0;
  const gated = failed + missing + judgeFailed;
  if (gated === 0 || within(gated, total, allowance)) return undefined;
  const first = report.failed_cases[0];
  const example = first !== undefined ? `the first: ${entryText(first)}` : `the first: ${report.missing_cases[0] ?? ''}`;
  const counts = judgeFailed === 0 ? unevaluatedText(total, failed, missing) : lackingText(total, failed, missing, judgeFailed);
  return `${counts} (more than ${allowanceText(allowance)}); ${example}; the report lists them all (report.json ${listsOf(failed + judgeFailed, missing)})`;
}

/**
 * What a run that passed the gate with cases lacking a judgment must still
 * say, as one line: how many, which judges, and that those judges' averages
 * are over fewer cases. Undefined when no judgment ended in error.
 */
export function judgeFailuresWarning(report: GatedCases, allowance: FailedCasesAllowance): string | undefined {
  const { total } = report.cases;
  const judgeFailed = report.cases.judge_failed ?? 0;
  if (judgeFailed === 0) return undefined;
  const casesByJudge = new Map<string, number>();
  for (const entry of report.failed_cases) {
    if (entry.judge !== undefined) casesByJudge.set(entry.judge, (casesByJudge.get(entry.judge) ?? 0) + 1);
  }
  const judges = [...casesByJudge]
    .sort(([left], [right]) => compareText(left, right))
    .map(([judge, cases]) => `${judge}: ${cases}`)
    .join(', ');
  return (
    `${judgeFailed} ${ofTotal(total)} ${judgeFailed === 1 ? 'lacks' : 'lack'} a judgment (${judges}), within ${allowanceText(allowance)}: ` +
    "those judges' metrics are averaged over fewer cases than were evaluated; report.json failed_cases lists them"
  );
}

function allowanceText(allowance: FailedCasesAllowance): string {
  return `--max-failed ${allowance.kind === 'count' ? allowance.count : allowance.text}`;
}

/** One failed_cases entry: a whole failed case and its error, or a case's judge, the engines it failed on, and the first error. */
function entryText(entry: GatedCases['failed_cases'][number]): string {
  if (entry.judge === undefined) return `${entry.case_id}: ${entry.error}`;
  const engines = entry.engines ?? [];
  const where = engines.length === 0 ? '' : ` (${engines.length === 1 ? 'engine' : 'engines'} ${engines.join(', ')})`;
  return `${entry.case_id}: judge ${entry.judge}${where}: ${entry.error}`;
}

function within(unevaluated: number, total: number, allowance: FailedCasesAllowance): boolean {
  if (allowance.kind === 'count') return unevaluated <= allowance.count;
  // unevaluated / total <= digits / 10^decimals / 100, in integers.
  return BigInt(unevaluated) * 100n * 10n ** BigInt(allowance.decimals) <= allowance.digits * BigInt(total);
}

function ofTotal(total: number): string {
  return `of ${total} ${total === 1 ? 'case' : 'cases'}`;
}

function deadlineText(missing: number): string {
  return `the run's deadline passed before ${missing === 1 ? 'it' : 'they'} ended`;
}

function unevaluatedText(total: number, failed: number, missing: number): string {
  if (missing === 0) return `${failed} ${ofTotal(total)} failed`;
  if (failed === 0) return `${missing} ${ofTotal(total)} ${missing === 1 ? 'is' : 'are'} missing: ${deadlineText(missing)}`;
  return `${failed + missing} ${ofTotal(total)} were not evaluated, ${failed} failed and ${missing} missing (${deadlineText(missing)})`;
}

/** The counts when some cases lack a judgment: alone, or beside the failed and missing ones. */
function lackingText(total: number, failed: number, missing: number, judgeFailed: number): string {
  if (failed + missing === 0) return `${judgeFailed} ${ofTotal(total)} ${judgeFailed === 1 ? 'lacks' : 'lack'} a judgment`;
  const parts = [
    ...(failed === 0 ? [] : [`${failed} failed`]),
    ...(missing === 0 ? [] : [`${missing} missing (${deadlineText(missing)})`]),
    `${judgeFailed} ${judgeFailed === 1 ? 'lacks' : 'lack'} a judgment`,
  ];
  const listed = `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  return `${failed + missing + judgeFailed} ${ofTotal(total)} were not evaluated or lack a judgment: ${listed}`;
}

function listsOf(listedInFailedCases: number, missing: number): string {
  if (missing === 0) return 'failed_cases';
  return listedInFailedCases === 0 ? 'missing_cases' : 'failed_cases and missing_cases';
}
