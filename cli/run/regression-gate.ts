import { regressionEvidence } from '../../shared/report-render/regression-text.js';
import { terminalName } from '../../shared/report-render/terminal-text.js';
import type { ReportComparison } from '../../shared/schema/report.js';
import { comparedWith, unpairedComparison } from '../../shared/compare/unpaired-comparison.js';

/** `--fail-on-regression` of `assay run`, as commander shows it in --help. */
export const FAIL_ON_REGRESSION_DESCRIPTION =
  "exit 1 when a metric got significantly worse than in the suite's baseline (or its previous run), after the other checks";

/**
 * What a written report found against its suite's baseline, one line a
 * regression (engine, metric, delta, p and its adjusted value, and the judge
 * whose corrected interval decided), for `stderr`: the report lists them, and a run that
 * got worse should not look, on the terminal, like one that did not.
 * Empty without a comparison or a regression.
 */
export function regressionLines(report: { readonly comparison?: ReportComparison | undefined }): string[] {
  const comparison = report.comparison;
  if (comparison === undefined) return [];
  const against = comparedWith(comparison);
  return comparison.regressions.map(
    (regression) =>
      `assay: regression against ${against}: ${terminalName(`${regression.engine} ${regression.metric}`)} ${regression.delta.toFixed(4)} (${regressionEvidence(regression, comparison.adjustment)})`,
  );
}

/**
 * The `--fail-on-regression` gate: why the run fails it, as one line, or
 * undefined when the report found no regression (or had nothing to compare
 * with: a suite's first run). A comparison with which no case paired fails it.
 */
export function regressionGate(report: {
  readonly run_id: string;
  readonly comparison?: ReportComparison | undefined;
}): string | undefined {
  const comparison = report.comparison;
  // A comparison that paired no case found no regression because it compared nothing: no gate passes on that.
  const unpaired = unpairedComparison(report);
  if (unpaired !== undefined) return `--fail-on-regression: ${unpaired}`;
  if (comparison === undefined || comparison.regressions.length === 0) return undefined;
  const count = comparison.regressions.length;
  const listed = comparison.regressions.map(
    (regression) =>
      `${regression.engine} ${regression.metric} (${regression.delta.toFixed(4)}, ${regressionEvidence(regression, comparison.adjustment)})`,
  );
  return `${count} ${count === 1 ? 'metric' : 'metrics'} got significantly worse against ${comparedWith(comparison)} (--fail-on-regression): ${listed.join(', ')}`;
}
