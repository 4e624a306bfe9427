import type { MetricValue } from '../schema/metric-value.js';
import type { Threshold, Thresholds } from '../schema/thresholds.js';

/**
 * The checks of the config's `thresholds:` (shared/schema/thresholds.ts) on
 * one engine's metrics for a case. The judge worker writes them into the
 * case's metrics (thresholdMetrics), so cases.jsonl has each check and the
 * report's ordinary statistics give `thresholds/pass/average`, the engine's
 * pass rate, with its count and interval.
 */
export type Check = 'pass' | 'fail';

/** The outcome of each applicable condition on one case's metrics, keyed by metric name. */
export function checkThresholds(metrics: Readonly<Record<string, MetricValue>>, thresholds: Thresholds): Record<string, Check> {
  const checks: Record<string, Check> = {};
  for (const [metric, threshold] of Object.entries(thresholds)) {
    if (!Object.hasOwn(metrics, metric)) continue;
    checks[metric] = passes(metrics[metric] as MetricValue, threshold) ? 'pass' : 'fail';
  }
  return checks;
}

/** A line passes when it has applicable conditions and none of them fails; undefined when none applies. */
export function linePasses(checks: Readonly<Record<string, Check>>): boolean | undefined {
  const outcomes = Object.values(checks);
  return outcomes.length === 0 ? undefined : outcomes.every((outcome) => outcome === 'pass');
}

function passes(value: MetricValue, threshold: Threshold): boolean {
  if (threshold === 'yes' || threshold === 'no') return value === threshold;
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  if (typeof threshold === 'number') return value >= threshold;
  return (threshold.min === undefined || value >= threshold.min) && (threshold.max === undefined || value <= threshold.max);
}

/** The checks as case metrics: `thresholds/<metric>/check` = "pass" | "fail", and `thresholds/pass` = 1 or 0 when any applied. */
export function thresholdMetrics(metrics: Readonly<Record<string, MetricValue>>, thresholds: Thresholds): Record<string, MetricValue> {
  const checks = checkThresholds(metrics, thresholds);
  const passed = linePasses(checks);
  const named: Record<string, MetricValue> = Object.fromEntries(
    Object.entries(checks).map(([metric, check]) => [`thresholds/${metric}/check`, check]),
  );
  if (passed !== undefined) named['thresholds/pass'] = passed ? 1 : 0;
  return named;
}
