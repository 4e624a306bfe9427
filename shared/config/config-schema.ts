import { z } from 'zod';
import { engineListSchema } from '../engines/engine-config.js';
import { rubricWeightsSchema } from '../judges/catalog/index.js';
import { customJudgeSchema } from '../judges/custom-judge.js';
import { dagJudgeSchema } from '../judges/dag/dag-config.js';
import { ensembleSchema } from '../judges/ensemble/ensemble-judge.js';
import { judgeClientSchema } from '../judge-client/judge-client-schema.js';
import { judgeOverridesSchema } from '../judge-client/judge-overrides.js';
import { thresholdsSchema } from '../schema/thresholds.js';
import { canarySettingsSchema } from './canary-settings.js';
import { MAX_CONCURRENCY } from '../schema/work-limits.js';
import { DEFAULT_BASELINE_ADJUSTMENT, DEFAULT_LEADERBOARD_ADJUSTMENT, pValueAdjustmentMethodSchema } from '../schema/p-value-adjustment.js';
import { DEFAULT_MIN_LABELLED } from '../statistics/prediction-powered-mean.js';

/**
 * The schema of the whole config file, with its defaults. Each section's own
 * schema lives with what it configures (the judge client, custom and
 * decision-tree judges, ensembles, engines, thresholds); this file puts them
 * together. Objects are strict so that a misspelt key is an error instead of
 * a silently ignored setting.
 */

/**
 * The longest `run.deadline_seconds`: 30 days. A run's deadline is kept as a
 * date, and 99999999999999 seconds is past the last date there is (it failed
 * the run after ingest with "Invalid time value"); a month is more than any
 * run waits for its cases, and refuses milliseconds meant as seconds
 * (3600000 for an hour).
 */
export const MAX_DEADLINE_SECONDS = 30 * 24 * 3600;

/** How a run is carried out: cutoffs of the ground-truth metrics, and how long the reducer waits. */
export const runSettingsSchema = z.strictObject({
  cutoffs: z.array(z.number().int().positive()).min(1).default([5, 10]),
  deadline_seconds: z.number().int().positive().max(MAX_DEADLINE_SECONDS).default(3600),
  check_delay_seconds: z.number().int().min(0).max(900).default(1),
  /** How many top hits of each live engine are judged. */
  judge_depth: z.number().int().min(1).default(10),
  /**
   * How many top documents of each engine's ranked list a case result and
   * cases.jsonl keep (at least judge_depth); the ground-truth metrics use the
   * whole list. A sweep's runs list 1,000 documents a topic, which the run
   * files hold already: kept whole, they would be most of cases.jsonl.
   */
  list_depth: z.number().int().min(1).default(100),
  /** Live engine calls in flight at once in one worker, over all its cases and engines. */
  engine_concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).default(8),
  /** The most the run's judges may spend, in judge.prices' currency; past it, the cases left are evaluated without their LLM judges. */
  max_judge_cost: z.number().positive().optional(),
  /**
   * The least Cohen's kappa (over the grades) a relevance judge must reach
   * with the human labels; below it the report and `assay run` warn.
   */
  min_agreement: z.number().min(-1).max(1).optional(),
  /** The ground-truth metrics corrected by the relevance judges, the human verdicts by the answer judges (shared/report/corrected-estimates.ts): the intervals' level, and the fewest labelled cases that get one. */
  corrected_estimates: z
    .strictObject({ level: z.number().gt(0).lt(1).default(0.95), min_labelled: z.number().int().min(3).default(DEFAULT_MIN_LABELLED) })
    .prefault({}),
  /**
   * How p-values are adjusted for the many tests a report makes
   * (shared/statistics/p-value-adjustment.ts): `baseline`, across every
   * engine × metric compared with the baseline, which the regression gate
   * decides on (Holm's method: no false alarm by chance); `leaderboard`,
   * across the pairs of engines a leaderboard tests (Benjamini-Hochberg: more
   * pairs told apart, a bounded share of them wrongly).
   */
  p_value_adjustment: z
    .strictObject({
      baseline: pValueAdjustmentMethodSchema.default(DEFAULT_BASELINE_ADJUSTMENT),
      leaderboard: pValueAdjustmentMethodSchema.default(DEFAULT_LEADERBOARD_ADJUSTMENT),
    })
    .prefault({}),
});

export const configFileSchema = z.strictObject({
  judge: judgeClientSchema.prefault({}),
  run: runSettingsSchema.prefault({}),
  /** Ids of the judges to run; absent means every built-in and custom judge. */
  judges: z.array(z.string().min(1)).optional(),
  rubric_weights: rubricWeightsSchema.optional(),
  custom_judges: z.array(customJudgeSchema).optional(),
  /** Pass conditions per case metric, for the report's pass rates and `assay run --fail-under`. */
  thresholds: thresholdsSchema.optional(),
  /** Decision-tree judges (after DeepEval's DAG metric): shared/judges/dag/. */
  dag_judges: z.array(dagJudgeSchema).optional(),
  /** Settings of single judges by id or variant id (`graded_relevance@gpt-4o`): model, base_url, temperature, max_tokens, repeat. */
  judge_settings: z.record(z.string().min(1), judgeOverridesSchema).optional(),
  /** Judges whose verdicts are combined per item (shared/judges/ensemble/ensemble-judge.ts). */
  ensembles: z.array(ensembleSchema).optional(),
  /** The live systems under test (shared/engines/). */
  engines: engineListSchema.optional(),
  /** A canary set every run judges too, uncached, to tell a changed judge from a changed engine (shared/canaries/). */
  canaries: canarySettingsSchema.optional(),
});
export type ConfigFile = z.infer<typeof configFileSchema>;

/**
 * Everything that decides a run's results: the config file's contents (judge
 * settings, judges, run settings) and the CLI's --strict. It is stored in the
 * manifest and hashed into the run id; it never holds a secret. A manifest
 * written before a key existed parses with that key's default.
 */
export const runConfigSchema = configFileSchema.extend({ strict: z.boolean().default(false) });
export type RunConfig = z.infer<typeof runConfigSchema>;
