import type { MetricValue } from '../schema/metric-value.js';
import type { Verdict } from '../judges/judge-definition.js';
import type { Result } from '../schema/result.js';

/** A judgment of an engine's whole output, as far as its metrics go. */
type Outcome = Result<Verdict, { readonly message: string }>;

/**
 * Metrics of one verdict on an engine's whole response or context:
 * `<prefix>/rating`, `/rationale`, `/error_message` (null where there is
 * none), and the verdict's named details (rubric parts, statement counts).
 */
export function wholeVerdictMetrics(prefix: string, outcome: Outcome): Record<string, MetricValue> {
  const metrics: Record<string, MetricValue> = {
    [`${prefix}/rating`]: outcome.ok ? outcome.value.rating : null,
    [`${prefix}/rationale`]: outcome.ok ? outcome.value.rationale : null,
    [`${prefix}/error_message`]: outcome.ok ? null : outcome.error.message,
  };
  if (outcome.ok) {
    for (const [name, value] of Object.entries(outcome.value.details ?? {})) metrics[`${prefix}/${name}`] = value;
  }
  return metrics;
}
