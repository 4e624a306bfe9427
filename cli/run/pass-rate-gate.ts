import type { Report } from '../../shared/schema/report.js';
import { UsageError } from '../usage-error.js';

/** The report statistic of an engine's share of cases that met every applicable threshold. */
export const PASS_RATE = 'thresholds/pass/average';

/** `--fail-under RATE` as a share from 0 to 1; a usage error otherwise, or when the config sets no thresholds. */
export function failUnderOf(value: string | undefined, hasThresholds: boolean): number | undefined {
  if (value === undefined) return undefined;
  const rate = Number(value);
  if (value.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) {
    throw new UsageError(`--fail-under got "${value}"; expected a pass rate from 0 to 1, e.g. 0.9`);
  }
  if (!hasThresholds)
    throw new UsageError(
      '--fail-under needs thresholds: in the config file; expected e.g. thresholds: {response/llm_judged/correctness/rating: yes}',
    );
  return rate;
}

/**
 * The CI gate: the engines whose pass rate is below `rate`, as one line, or
 * undefined when every engine with a pass rate meets it. An engine no
 * threshold applied to has no pass rate and is not held to it.
 */
export function belowPassRate(report: Report, rate: number): string | undefined {
  const below = Object.entries(report.engines).flatMap(([engine, statistics]) => {
    const passRate = statistics[PASS_RATE];
    return passRate !== undefined && passRate < rate
      ? [`${engine} ${passRate.toFixed(4)} of ${statistics['thresholds/pass/count']} cases`]
      : [];
  });
  return below.length === 0 ? undefined : `pass rate under --fail-under ${rate}: ${below.join('; ')}`;
}
