import { z } from 'zod';

/**
 * A suite's judge canaries (the config's `canaries:`): a small dataset with
 * human labels that every run of the suite judges too, with the run's judges
 * and without the judge cache, so that a judge that changed under the same
 * name shows in the canary's verdicts against the baseline run's
 * (shared/canaries/canary-drift.ts) before it is read as the engine's change.
 */
export const canarySettingsSchema = z.strictObject({
  /**
   * The canary set: a dataset file (JSONL, JSON or CSV, in any convention a
   * run reads) whose rows carry human labels, graded `expected_retrieved_context`
   * or human verdicts. `assay run` reads it relative to the config file's
   * folder and stores it at `canaries/<suite>/<file name>`, where ingest reads it.
   */
  dataset: z.string().min(1),
  /** The level of the tests that say a judge changed, over the run's judges together (Holm). */
  alpha: z.number().gt(0).lt(1).default(0.05),
});
export type CanarySettings = z.infer<typeof canarySettingsSchema>;

export const CANARY_FIXES: Readonly<Record<string, string>> = {
  canaries:
    'write an object with dataset (a dataset file with human labels, e.g. canary.jsonl) and, if you like, alpha (the level of the judge-change tests, default 0.05)',
  'canaries.dataset':
    'give the path of a dataset file with human labels (.jsonl, .json or .csv), relative to the config file, e.g. canary.jsonl',
  'canaries.alpha': 'give the level of the judge-change tests, a number between 0 and 1, e.g. 0.05',
};

export const CANARY_KEYS: Readonly<Record<string, readonly string[]>> = { canaries: Object.keys(canarySettingsSchema.shape) };
