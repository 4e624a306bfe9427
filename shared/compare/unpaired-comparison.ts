import type { ReportComparison } from '../schema/report.js';

/**
 * A report compared with its suite's baseline (or previous run) with which
 * no case pairs: cases pair by engine and request_id, and none of this run's
 * is in the other, as when the suite's dataset was replaced by one with
 * other request ids. Such a comparison finds no regression whatever the
 * engines did; said as a warning, it keeps a nightly gate from passing on
 * nothing. Undefined when some case paired (or nothing was compared with).
 */
export function unpairedComparison(report: {
  readonly run_id: string;
  readonly comparison?: ReportComparison | undefined;
}): string | undefined {
  const { comparison } = report;
  if (comparison === undefined || Object.keys(comparison.engines).length > 0) return undefined;
  const against = `${comparison.baseline_kind === 'baseline' ? 'the baseline' : 'the previous run'} ${comparison.baseline_run_id}`;
  return (
    `no case pairs with ${against} (cases pair by engine and request_id, and none of this run's is in it, as when the suite's dataset was replaced), ` +
    `so no regression can be found against it; if this dataset is the suite's from now on, make this run its baseline: assay baseline set ${report.run_id}`
  );
}
