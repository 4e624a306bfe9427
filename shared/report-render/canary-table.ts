import { identitiesText, pText } from '../canaries/canary-section.js';
import type { CanaryJudge, CanaryReport } from '../schema/canary-report.js';

export const CANARY_COLUMNS = ['judge', 'items', 'failed', 'kappa', 'changed', 'down / up', 'p (Holm)', 'answered by', ''] as const;

export interface CanaryRow {
  readonly judge: string;
  /** Flagged as changed: its verdicts moved, or its model identity did. */
  readonly changed: boolean;
  /** The cells after the judge's name, in CANARY_COLUMNS order; `–` where there is nothing to show. */
  readonly cells: readonly string[];
}

/** The rows of the canary table of report.md and report.html, one per judge, in the report's order. */
export function canaryRows(canaries: CanaryReport): CanaryRow[] {
  return Object.entries(canaries.judges).map(([judge, canary]) => ({ judge, changed: canary.changed, cells: canaryCells(canary) }));
}

function canaryCells(canary: CanaryJudge): string[] {
  const { drift } = canary;
  const kappa = canary.agreement?.cohen_kappa;
  const identity = identitiesText(canary.answered_by);
  return [
    String(canary.items.length),
    String(canary.failed),
    kappa === undefined || kappa === null ? '–' : kappa.toFixed(3),
    drift === undefined ? '–' : `${drift.changed} of ${drift.paired}`,
    drift === undefined ? '–' : `${drift.lower} / ${drift.higher}`,
    drift === undefined ? '–' : pText(drift.adjusted_p_value).replace(/^p = /, ''),
    drift?.identity_changed === true ? `${identity} (was ${identitiesText(drift.identities_before)})` : identity,
    canary.changed ? 'changed' : '',
  ];
}

/** The sentences under the table: the canary's cases, what it was compared with, how the tests decide, and what the canary cost. */
export function canaryNote(canaries: CanaryReport): string {
  const { cases } = canaries;
  const calls = Object.values(canaries.usage).reduce((sum, usage) => sum + usage.calls, 0);
  const tokens = Object.values(canaries.usage).reduce((sum, usage) => sum + usage.input_tokens + usage.output_tokens, 0);
  const problems =
    canaries.input_errors === 0 ? '' : ` ${canaries.input_errors} input errors; the first: ${canaries.first_input_error ?? 'unknown'}.`;
  const compared =
    canaries.compared_with === null
      ? `Not compared: ${canaries.not_compared ?? 'no run to compare with'}.`
      : `Compared with run ${canaries.compared_with}, item by item: McNemar's exact test of the yes/no verdicts, a paired sign-flip test of the grades, the p-values adjusted by Holm's method over the judges tested; a judge is flagged changed at adjusted p < ${canaries.alpha}, or when another model identity answered. A regression of a judge's metric goes to the judge when its verdicts moved, unless human labels decided it.`;
  return (
    `Canary set ${canaries.dataset}: ${cases.total} cases, ${cases.evaluated} evaluated, ${cases.failed} failed, ${cases.missing} missing.${problems} ` +
    `${compared} Kappa: agreement with the canary's human labels. The canary is judged afresh each run, past the judge cache: ${calls} calls, ${tokens} tokens this run.`
  );
}
