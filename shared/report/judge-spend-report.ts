import { spendSettingsOf } from '../schema/judge-prices.js';
import type { Report } from '../schema/report.js';
import type { JudgeUsageRecord, Manifest } from '../schema/run-records.js';
import { judgeCost } from './judge-cost.js';

export interface JudgedCaseCounts {
  /** Cases with a result. */
  readonly evaluated: number;
  /** Of those, the cases whose LLM judges were skipped because the cost ceiling was reached. */
  readonly judgingSkipped: number;
}

/**
 * The report's `judge_cost` (with judge.prices) and `judge_budget` (with
 * run.max_judge_cost): the estimated cost of the run's judge usage, and
 * whether the ceiling was reached (`budgetReached`: the run's
 * judge-budget-reached marker exists) with how many cases were judged and
 * how many had their LLM judges skipped.
 */
export function judgeSpendFields(
  manifest: Manifest,
  judges: Readonly<Record<string, JudgeUsageRecord>>,
  counts: JudgedCaseCounts,
  budgetReached: boolean,
): Pick<Report, 'judge_cost' | 'judge_budget'> {
  const { prices, maxCost } = spendSettingsOf(manifest.config);
  if (prices === undefined) return {};
  const judgeBudget =
    maxCost === undefined
      ? undefined
      : {
          max_judge_cost: maxCost,
          currency: prices.currency,
          reached: budgetReached || counts.judgingSkipped > 0,
          judged_cases: counts.evaluated - counts.judgingSkipped,
          skipped_cases: counts.judgingSkipped,
        };
  return { judge_cost: judgeCost(judges, prices), ...(judgeBudget === undefined ? {} : { judge_budget: judgeBudget }) };
}
