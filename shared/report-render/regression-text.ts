import { adjustmentName, type PValueAdjustmentRecord } from '../schema/p-value-adjustment.js';
import type { ReportComparison } from '../schema/report.js';

type Regression = ReportComparison['regressions'][number];

/**
 * The evidence of one regression in a line of text, for the terminal (`assay
 * run`'s stderr and its --fail-on-regression gate, `assay compare`'s): the
 * raw p-value, the adjusted one the decision rests on (with the method and
 * the size of the family, when given), and the judge whose corrected interval
 * decided: `p 0.0001, Holm-adjusted 0.0044 over 44 tests, corrected by
 * graded_relevance`. A regression of a comparison written before p-values
 * were adjusted has the raw p-value alone.
 */
export function regressionEvidence(regression: Regression, adjustment: PValueAdjustmentRecord | undefined): string {
  const adjusted =
    regression.adjusted_p_value === undefined || adjustment === undefined || adjustment.method === 'none'
      ? ''
      : `, adjusted ${regression.adjusted_p_value.toFixed(4)} (${adjustmentName(adjustment.method)} over ${adjustment.tests} ${adjustment.tests === 1 ? 'test' : 'tests'})`;
  return `p ${regression.p_value.toFixed(4)}${adjusted}${regression.judge === undefined ? '' : `, corrected by ${regression.judge}`}`;
}
