import type { MetricValue } from '../judges/metric-value.js';
import type { Threshold, Thresholds } from '../schema/thresholds.js';

/** The checks of the config's `thresholds:` (shared/schema/thresholds.ts) on a case's metrics, and pass rates per engine. */
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

/** Per engine: the lines a condition applied to, how many passed, and their share. */
export interface PassRate {
  readonly cases: number;
  readonly passed: number;
  readonly pass_rate: number;
}

export class PassRates {
  private readonly counts = new Map<string, { cases: number; passed: number }>();

  add(engine: string, passed: boolean | undefined): void {
    if (passed === undefined) return;
    const count = this.counts.get(engine) ?? { cases: 0, passed: 0 };
    count.cases += 1;
    if (passed) count.passed += 1;
    this.counts.set(engine, count);
  }

  /** Engines in code-unit order, each with its pass rate. */
  rates(): Record<string, PassRate> {
    const engines = [...this.counts.keys()].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
    return Object.fromEntries(engines.map((engine) => {
      const { cases, passed } = this.counts.get(engine) as { cases: number; passed: number };
      return [engine, { cases, passed, pass_rate: passed / cases }];
    }));
  }
}
