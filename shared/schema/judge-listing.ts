import { z } from 'zod';

/**
 * One judge as `assay judges --json` prints it (cli/commands/judges.ts builds
 * it; docs/judges.md describes it): what it assesses, the inputs a case needs
 * for it and its scale, so a user can pick ids for the config's `judges` list.
 */
export const judgeListingSchema = z.object({
  id: z.string(),
  scope: z.enum(['retrieval', 'response']),
  kind: z.enum(['llm', 'deterministic', 'dag', 'ensemble']),
  /** What one verdict is about: a retrieved chunk, the response, or the whole case. */
  assessment: z.enum(['chunk', 'response', 'case']),
  inputs: z.array(z.string()).readonly(),
  /** The scale in words (`yes/no`, `0-3`, ...). */
  scale: z.string(),
  description: z.string(),
  /** What the config sets for this judge alone: model, base_url, temperature, max_tokens, repeat; absent when nothing. */
  settings: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  /** An ensemble's members and how their verdicts are combined. */
  members: z.array(z.string()).readonly().optional(),
  combine: z.enum(['majority', 'mean', 'median']).optional(),
});
export type JudgeListing = z.infer<typeof judgeListingSchema>;

export const judgeListingsSchema = z.array(judgeListingSchema);
