import { AGREEMENT_LEVEL, judgeAgreement } from '../report/judge-agreement.js';
import type { CanaryItem } from '../schema/canary-report.js';
import type { JudgeAgreement } from '../schema/report.js';

/**
 * A judge's agreement with the canary's human labels, as the report's
 * agreement and `assay agreement` measure it (shared/report/judge-agreement.ts
 * builds the statistics from the same confusion table): over the items with
 * both a verdict and a human label. A yes/no judge is set against the human
 * grades read as relevant (grade >= 1) or not, as the report reads them.
 * Undefined when no item has both.
 */
export function canaryAgreement(items: readonly CanaryItem[], scale: 'yes_no' | 'graded'): JudgeAgreement | undefined {
  const table = new Map<number, Map<number, number>>();
  for (const item of items) {
    if (item.verdict === null || item.human === undefined) continue;
    const human = scale === 'yes_no' ? Number(item.human >= AGREEMENT_LEVEL) : item.human;
    const row = table.get(human) ?? new Map<number, number>();
    table.set(human, row);
    row.set(item.verdict, (row.get(item.verdict) ?? 0) + 1);
  }
  return table.size === 0 ? undefined : judgeAgreement(table, AGREEMENT_LEVEL);
}
