import type { CanaryHistory, CanaryReport } from '../schema/canary-report.js';
import { identitiesText } from './canary-section.js';

/** A run's canary as a suite's history keeps it (canaryHistorySchema): the numbers without the items. */
export function canaryHistoryOf(canaries: CanaryReport): CanaryHistory {
  const judges = Object.entries(canaries.judges).map(([judge, canary]) => {
    const kappa = canary.agreement === undefined ? {} : { kappa: canary.agreement.cohen_kappa };
    const drift =
      canary.drift === undefined
        ? {}
        : { changed_items: canary.drift.changed, paired: canary.drift.paired, p_value: canary.drift.adjusted_p_value };
    const entry = {
      ...kappa,
      items: canary.items.length,
      ...drift,
      answered_by: identitiesText(canary.answered_by),
      identity_changed: canary.drift?.identity_changed ?? false,
      changed: canary.changed,
    };
    return [judge, entry] as const;
  });
  return {
    compared_with: canaries.compared_with,
    judges: Object.fromEntries(judges),
    changed_judges: [...canaries.changed_judges],
    attributed_regressions: [...canaries.attributed_regressions],
    summary: [...canaries.summary],
  };
}
