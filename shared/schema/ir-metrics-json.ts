import { z } from 'zod';

/** trec_eval's printed measure name (`P_5`, `ndcg_cut_10`) → its value: a number in full double precision, or the run's tag for `runid`. */
const measureValuesSchema = z.record(z.string(), z.union([z.number(), z.string()]));

/**
 * What `assay ir-metrics --json` prints for one run (shared/trec/format.ts
 * writes it; docs/trec.md describes it): every topic's measures, always, and
 * the summary.
 */
export const irMetricsRunJsonSchema = z.object({
  /** Topic id → its measures, in the run's topic order. */
  per_query: z.record(z.string(), measureValuesSchema),
  all: measureValuesSchema,
});

/** With several runs: one object per run file, keyed by its path as given. */
export const irMetricsRunsJsonSchema = z.record(z.string(), irMetricsRunJsonSchema);
