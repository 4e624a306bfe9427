import { z } from 'zod';
import { inputErrorSchema } from './input-error.js';

const count = z.number().int().nonnegative();

/**
 * What `assay validate --json` prints (cli/validation-report.ts builds it;
 * docs/datasets.md describes it): the counts over every input, and its bad
 * rows.
 */
export const validationJsonSchema = z.object({
  /** Rows read, good or bad (for TREC input, qrels and run lines). */
  rows: count,
  cases: count,
  /** Engine name → the cases that engine answered. */
  engines: z.record(z.string(), count),
  /** Cases with relevance labels (docs/datasets.md#labelled-cases). */
  labelled_cases: count,
  /** Cases with an expected response, labelled or not. */
  expected_response_cases: count,
  /** Cases with a person's verdict on an engine's answer, labelled or not. */
  human_verdict_cases: count,
  /** The bad rows, the first 10,000 of them. */
  errors: z.array(inputErrorSchema),
  /** Every bad row, counted: above `errors`' length when the list was cut. */
  error_count: count,
});
export type ValidationJson = z.infer<typeof validationJsonSchema>;
