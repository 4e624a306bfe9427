import type { ReportComparison } from '../schema/report.js';
import { compareText } from '../report/ordering.js';

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
  return (
    `no case pairs with ${comparedWith(comparison)} (cases pair by engine and request_id, and none of this run's is in it, as when the suite's dataset was replaced), ` +
    `so no regression can be found against it; if this dataset is the suite's from now on, make this run its baseline: assay baseline set ${report.run_id}`
  );
}

/**
 * The engines a comparison that paired some cases left out: this run's with
 * no case paired in the other run (a renamed or a new engine), and the other
 * run's with no case in this one (renamed or dropped). Their regressions
 * cannot be seen, so the report says which; undefined when every engine was
 * compared, or when nothing was (unpairedComparison says that).
 */
export function enginesLeftOut(
  report: {
    readonly run_id: string;
    readonly engines: Readonly<Record<string, unknown>>;
    readonly comparison?: ReportComparison | undefined;
  },
  otherEngines: readonly string[],
): string | undefined {
  const { comparison } = report;
  if (comparison === undefined) return undefined;
  const compared = new Set(Object.keys(comparison.engines));
  if (compared.size === 0) return undefined;
  const current = Object.keys(report.engines);
  const unpaired = current.filter((engine) => !compared.has(engine)).sort(compareText);
  const gone = otherEngines.filter((engine) => !current.includes(engine)).sort(compareText);
  if (unpaired.length === 0 && gone.length === 0) return undefined;
  const parts = [
    ...(unpaired.length === 0 ? [] : [`this run's ${unpaired.join(', ')} ${unpaired.length === 1 ? 'has' : 'have'} no case in it`]),
    ...(gone.length === 0 ? [] : [`its ${gone.join(', ')} ${gone.length === 1 ? 'is' : 'are'} not in this run`]),
  ];
  return (
    `engines not compared with ${comparedWith(comparison)}, whose regressions cannot be seen: ${parts.join(', and ')} (a renamed, new or dropped engine); ` +
    `if this run's engines are the suite's from now on, make this run its baseline: assay baseline set ${report.run_id}`
  );
}

/** The run a comparison was with, as a sentence names it: `the baseline r-…` or `the previous run r-…`. */
export function comparedWith(comparison: ReportComparison): string {
  return `${comparison.baseline_kind === 'baseline' ? 'the baseline' : 'the previous run'} ${comparison.baseline_run_id}`;
}
