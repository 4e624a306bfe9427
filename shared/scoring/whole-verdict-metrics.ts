import type { MetricValue } from '../schema/metric-value.js';
import type { Verdict } from '../judges/judge-definition.js';

type Outcome = { ok: true; verdict: Verdict } | { ok: false; error: string };

/**
 * Metrics of one verdict on an engine's whole response or context:
 * `<prefix>/rating`, `/rationale`, `/error_message` (null where there is
 * none), and the verdict's named details (rubric parts, statement counts).
 */
export function wholeVerdictMetrics(prefix: string, outcome: Outcome): Record<string, MetricValue> {
  const metrics: Record<string, MetricValue> = {
    [`${prefix}/rating`]: outcome.ok ? outcome.verdict.rating : null,
    [`${prefix}/rationale`]: outcome.ok ? outcome.verdict.rationale : null,
    [`${prefix}/error_message`]: outcome.ok ? null : outcome.error,
  };
  if (outcome.ok) {
    for (const [name, value] of Object.entries(outcome.verdict.details ?? {})) metrics[`${prefix}/${name}`] = value;
  }
  return metrics;
}
