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
 * that did not run) is not applicable, while a metric present as null (the
 * judge failed) fails: an answer nobody could judge is not a pass.
 */
export const thresholdSchema = z.union([
  z.enum(['yes', 'no']),
  z.number().finite(),
  z
    .strictObject({ min: z.number().finite().optional(), max: z.number().finite().optional() })
    .refine((bounds) => bounds.min !== undefined || bounds.max !== undefined, 'give min, max or both'),
]);
export const thresholdsSchema = z.record(z.string().min(1), thresholdSchema);
export type Thresholds = z.infer<typeof thresholdsSchema>;
export type Threshold = z.infer<typeof thresholdSchema>;

