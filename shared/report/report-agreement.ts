import type { JudgeAgreement, Report } from '../schema/report.js';
import type { Manifest } from '../schema/run-records.js';

/**
 * The report with its judges' agreement with the human labels and the
 * warnings `run.min_agreement` asks for; both keys are left out when empty,
 * so a run without labels or relevance judges reads as before. Both report
 * builders (aggregate.ts from the records, write-report.ts from cases.jsonl)
 * end here.
 */
export function withAgreement(
  report: Report,
  agreement: Record<string, JudgeAgreement> | undefined,
  minAgreement: number | undefined,
): Report {
  const warnings = [...(report.warnings ?? []), ...agreementWarnings(agreement, minAgreement)];
  return { ...report, ...(agreement === undefined ? {} : { agreement }), ...(warnings.length === 0 ? {} : { warnings }) };
}

/**
 * One warning per judge whose Cohen's kappa over the grades falls below
 * `run.min_agreement`, or cannot be computed (the reason then says why), and
 * one when the setting is given but nothing could be checked. A warning, not
 * a failure: the run's exit status does not change.
 */
export function agreementWarnings(agreement: Record<string, JudgeAgreement> | undefined, minAgreement: number | undefined): string[] {
  if (minAgreement === undefined) return [];
  if (agreement === undefined)
    return [`run.min_agreement ${minAgreement} was not checked: the run has no human labels on documents a relevance judge graded`];
  return Object.entries(agreement).flatMap(([judge, statistics]) => {
    if (statistics.cohen_kappa === null) {
      return [
        `${judge}: agreement with the human labels is unknown (${statistics.reasons.cohen_kappa ?? 'kappa is undefined'}), so run.min_agreement ${minAgreement} is not met`,
      ];
    }
    if (statistics.cohen_kappa >= minAgreement) return [];
    // Rounded for reading, unless rounding would reach the minimum it falls short of.
    const rounded =
      Number(statistics.cohen_kappa.toFixed(3)) < minAgreement ? statistics.cohen_kappa.toFixed(3) : String(statistics.cohen_kappa);
    return [
      `${judge}: Cohen's kappa with the human labels is ${rounded} over ${statistics.pairs} pairs, below run.min_agreement ${minAgreement}`,
    ];
  });
}

/** `run.min_agreement` of the run's config, when set. */
export function minAgreementOf(manifest: Manifest): number | undefined {
  const run = (manifest.config as { run?: { min_agreement?: unknown } }).run;
  return typeof run?.min_agreement === 'number' ? run.min_agreement : undefined;
}
