import type { JudgeAgreement, Report } from '../schema/report.js';

export const AGREEMENT_COLUMNS = [
  'judge',
  'pairs',
  'exact agreement',
  'kappa',
  'weighted kappa',
  'binary kappa',
  'precision',
  'recall',
] as const;

export interface AgreementRow {
  readonly judge: string;
  /** The cells after the judge's name, in AGREEMENT_COLUMNS order; an undefined statistic is `–`. */
  readonly cells: readonly string[];
}

/** The rows of the agreement table of report.md and report.html, judges in the report's order; none without an agreement block. */
export function agreementRows(report: Report): AgreementRow[] {
  return Object.entries(report.agreement ?? {}).map(([judge, agreement]) => ({ judge, cells: agreementCells(agreement) }));
}

function agreementCells(agreement: JudgeAgreement): string[] {
  const { binary } = agreement;
  return [
    String(agreement.pairs),
    ...[agreement.exact_agreement, agreement.cohen_kappa, agreement.weighted_kappa, binary.kappa, binary.precision, binary.recall].map(
      statistic,
    ),
  ];
}

function statistic(value: number | null): string {
  return value === null ? '–' : value.toFixed(3);
}

/** The sentence under the table: what the binary columns cut at, and where the missing values' reasons are. */
export function agreementNote(report: Report): string {
  const levels = [...new Set(Object.values(report.agreement ?? {}).map((agreement) => agreement.binary.level))];
  return `Over the (request, document) pairs both the judge and the human labels grade; a yes/no verdict counts as grade 1/0. Binary: relevant = grade ${levels.join(', ')} or higher, the human labels as the truth. Kappa is Cohen's over the grades; weighted kappa is quadratic. A – is undefined; report.json says why.`;
}
