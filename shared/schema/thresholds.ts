import { z } from 'zod';

/**
 * Pass conditions per case metric, from the config's `thresholds:`: the gate
 * a CI job holds a run to. A condition is
 * - "yes" or "no": the rating must be that verdict;
 * - a number: the metric must be at least that (higher is better);
 * - `{min: x}` / `{max: x}` (either or both): within the bounds, for metrics
 *   where lower is better, such as `engine/latency_ms`.
 * A case's line passes when every condition whose metric it has passes; a
 * metric it lacks altogether (no labels for a ground-truth metric, a judge
 * that did not run) is not applicable (which is why the name of a run
 * statistic, which no case has, is refused rather than never applied), while a metric present as null (the
 * judge failed) fails: an answer nobody could judge is not a pass.
 */
export const thresholdSchema = z.union([
  z.enum(['yes', 'no']),
  z.number().finite(),
  z
    .strictObject({ min: z.number().finite().optional(), max: z.number().finite().optional() })
    .refine((bounds) => bounds.min !== undefined || bounds.max !== undefined, 'give min, max or both'),
]);
/** A name of the report's statistics across cases (`.../rating/percentage`, safety's `.../rating/average`): no case has it. */
const RUN_STATISTIC = /\/(average|percentage)(\/ci_(low|high))?$/;

export const thresholdsSchema = z.record(z.string().min(1), thresholdSchema).superRefine((thresholds, context) => {
  for (const metric of Object.keys(thresholds)) {
    const match = RUN_STATISTIC.exec(metric);
    if (match === null) continue;
    const perCase = metric.slice(0, match.index);
    context.addIssue({
      code: 'custom',
      path: [metric],
      message:
        `"${metric}" is a statistic across cases, and thresholds hold each case's metrics: write "${perCase}" ` +
        `("yes" for a yes/no rating, or a number) and gate the run's share of passing cases with --fail-under`,
    });
  }
});
export type Thresholds = z.infer<typeof thresholdsSchema>;
export type Threshold = z.infer<typeof thresholdSchema>;
