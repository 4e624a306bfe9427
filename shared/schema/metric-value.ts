/** A per-case metric value: a number, a rating, a text (rationale, error), null, or a per-chunk list of those. */
export type MetricValue = number | string | null | readonly (number | string | null)[];
