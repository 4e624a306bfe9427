import type { JudgeBudget, JudgeCost } from '../schema/report.js';

/** An amount of money as the reports show it: the currency, then 4 decimals. */
export function formatCost(amount: number | null, currency: string): string {
  return amount === null ? 'unknown' : `${currency} ${amount.toFixed(4)}`;
}

/** What the reports say under the judge usage table about the cost estimate. */
export function costNote(cost: JudgeCost | undefined): string {
  if (cost === undefined) return 'No cost estimate: the config gives no judge.prices.';
  const unpriced =
    cost.unpriced_models.length === 0
      ? ''
      : ` No price for ${cost.unpriced_models.join(', ')}: ${cost.unpriced_models.length === 1 ? 'its' : 'their'} cost is unknown.`;
  const batch =
    cost.online_cost === undefined
      ? ''
      : ` Answers from batch jobs are at the batch price; the same tokens on demand would have cost ${formatCost(cost.online_cost, cost.currency)}.`;
  return `The cost is an estimate at the config's judge.prices, total ${formatCost(cost.total, cost.currency)}; the bill depends on the provider. Cache hits use no tokens.${batch}${unpriced}`;
}

/** One sentence about run.max_judge_cost: reached or not, and how many cases were judged and skipped. */
export function budgetText(budget: JudgeBudget): string {
  const ceiling = `run.max_judge_cost ${formatCost(budget.max_judge_cost, budget.currency)}`;
  const judged = `${budget.judged_cases} case${budget.judged_cases === 1 ? '' : 's'} judged`;
  if (!budget.reached) return `The judge spend stayed within ${ceiling}: ${judged}.`;
  return `The judge spend reached ${ceiling}: ${judged}, ${budget.skipped_cases} evaluated without their LLM judges; judge metrics are averaged over the judged cases only.`;
}
