import { compareText } from '../report/ordering.js';
import { alignedTable } from '../report-render/text-table.js';
import { terminalName } from '../report-render/terminal-text.js';
import type { MetricComparison } from '../schema/report.js';
import type { RunComparison } from '../schema/compare-json.js';
import { adjustmentSentence } from '../schema/p-value-adjustment.js';

const HEADER = ['metric', 'A', 'B', 'delta', 'rel.', 'p', 'adj. p', 'sig', 'n', 'W/L/T'] as const;
const DECIMALS = 4;

/**
 * The comparison as plain text for the terminal: per engine a title line
 * and a table with one row per metric (metric, A, B, delta, rel., p, adj. p,
 * sig, n, W/L/T), numbers with 4 decimals, deltas signed, p below 0.0001 as
 * "<0.0001", a relative delta of a zero mean as "n/a", ✓ in `sig` when
 * significant; a ground-truth metric corrected by relevance judges has a row
 * per judge under it (correctedRows). The adjusted p-value stands beside the
 * raw one it adjusts: the metric's row, or the row of the judge that decides.
 * Words that explain a missing number go under the table as numbered notes,
 * the cell holding only the mark (`no interval [1]`), so a sentence never
 * sets a column's width. Engines are separated by a blank line; a last line
 * says which family the p-values were adjusted across; the text ends with a
 * newline.
 */
export function renderComparisonTable(comparison: RunComparison): string {
  const engines = Object.keys(comparison.engines).sort(compareText);
  if (engines.length === 0)
    return 'No metric has values for the same cases in both runs (cases are paired by request_id within each engine).\n';
  const tables = engines.map((engine) => engineTable(engine, comparison.engines[engine] ?? {})).join('\n');
  return `${tables}\n${adjustmentSentence(comparison.adjustment)}.\n`;
}

function engineTable(engine: string, metrics: Record<string, MetricComparison>): string {
  const notes = new Notes();
  const body = Object.keys(metrics)
    .sort(compareText)
    .flatMap((metric) => [row(metric, metrics[metric] as MetricComparison), ...correctedRows(metrics[metric] as MetricComparison, notes)]);
  const noteLines = notes.lines();
  return `engine ${terminalName(engine)}\n${alignedTable(HEADER, body)}\n${noteLines.length === 0 ? '' : `\n${noteLines.join('\n')}\n`}`;
}

/** The notes under one table, numbered in order of first use; the same words share a number. */
class Notes {
  private readonly texts: string[] = [];

  /** The mark of `text` in a cell: its number in brackets. */
  mark(text: string): string {
    const index = this.texts.indexOf(text);
    if (index >= 0) return `[${index + 1}]`;
    this.texts.push(text);
    return `[${this.texts.length}]`;
  }

  lines(): string[] {
    return this.texts.map((text, index) => `[${index + 1}] ${terminalName(text)}`);
  }
}

function row(metric: string, compared: MetricComparison): string[] {
  return [
    metric,
    compared.a.toFixed(DECIMALS),
    compared.b.toFixed(DECIMALS),
    signed(compared.delta),
    compared.relative_delta === null ? 'n/a' : signed(compared.relative_delta),
    pValueText(compared.p_value),
    compared.corrected_decision === undefined ? adjustedText(compared) : '',
    compared.significant ? '✓' : '',
    String(compared.n),
    `${compared.wins}/${compared.losses}/${compared.ties}`,
  ];
}

/**
 * Under a ground-truth metric, one row per relevance judge that corrects it:
 * the corrected delta with its interval, its p-value, and n as labelled/all
 * cases; or `no interval` and the mark of the note that says why. When one
 * gives an interval, the metric's `sig` is theirs.
 */
function correctedRows(compared: MetricComparison, notes: Notes): string[][] {
  return Object.keys(compared.corrected ?? {})
    .sort(compareText)
    .map((judge) => {
      const estimate = compared.corrected?.[judge];
      const interval = estimate?.corrected;
      const label = `  corrected by ${judge}`;
      const n = `${estimate?.labelled ?? 0}/${estimate?.cases ?? 0}`;
      if (interval === undefined || estimate?.p_value === undefined) {
        const why = estimate?.reason === undefined ? '' : ` ${notes.mark(estimate.reason)}`;
        return [label, '', '', `no interval${why}`, '', '', '', '', n, ''];
      }
      const adjusted = compared.corrected_decision?.judge === judge ? adjustedText(compared) : '';
      const delta = `${signed(interval.mean)} [${signed(interval.low)}, ${signed(interval.high)}]`;
      return [label, '', '', delta, '', pValueText(estimate.p_value), adjusted, '', n, ''];
    });
}

/** A p-value with 4 decimals, below 0.0001 as "<0.0001". */
function pValueText(pValue: number): string {
  return pValue < 10 ** -DECIMALS ? '<0.0001' : pValue.toFixed(DECIMALS);
}

/** The adjusted p-value of a comparison, or "" for one written before p-values were adjusted. */
function adjustedText(compared: MetricComparison): string {
  return compared.adjusted_p_value === undefined ? '' : pValueText(compared.adjusted_p_value);
}

/** A number with 4 decimals and a + when positive, so gains and losses read apart. */
function signed(value: number): string {
  const text = value.toFixed(DECIMALS);
  return value > 0 ? `+${text}` : text;
}
