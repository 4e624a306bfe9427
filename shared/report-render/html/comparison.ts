import { z } from 'zod';
import { compareText } from '../../report/ordering.js';
import { escapeHtml, isolatedText } from './escape.js';
import { tableControls } from './table-script.js';
import { adjustmentSentence, pValueAdjustmentSchema } from '../../schema/p-value-adjustment.js';

const metricComparisonSchema = z.object({
  /** The baseline run's value. */
  a: z.number(),
  /** This run's value. */
  b: z.number(),
  /** b - a: positive when this run is higher. */
  delta: z.number(),
  p_value: z.number().min(0).max(1),
  /** Whether the difference passed the comparison's significance test. */
  significant: z.boolean(),
  /** When a judge's corrected interval decided: its p-value, the one adjusted. */
  corrected_decision: z.object({ judge: z.string(), p_value: z.number().min(0).max(1) }).optional(),
  /** The deciding p-value adjusted across the comparison; absent in comparisons written before. */
  adjusted_p_value: z.number().min(0).max(1).optional(),
});

const queryDeltaSchema = z.object({
  case_id: z.string(),
  engine: z.string(),
  metric: z.string(),
  a: z.number(),
  b: z.number(),
  delta: z.number(),
});

/**
 * This run against a baseline run, as the HTML report shows it: per engine
 * and metric the two values, their difference and its significance, and
 * optionally the per-query differences. `a` is always the baseline, `b` this
 * run.
 */
export const runComparisonSchema = z.object({
  baseline_run_id: z.string(),
  adjustment: pValueAdjustmentSchema.optional(),
  engines: z.record(z.string(), z.record(z.string(), metricComparisonSchema)),
  per_query: z.array(queryDeltaSchema).optional(),
});
export type RunComparison = z.infer<typeof runComparisonSchema>;

const PER_QUERY_TABLE_ID = 'comparison-per-query-table';

/**
 * The comparison section: one row per engine and metric (sorted), then, when
 * given, the per-query deltas, largest drop first. A significant change reads
 * "▲ higher" or "▼ lower" in words as well as in colour.
 */
export function comparisonSection(comparison: RunComparison): string {
  const rows = Object.keys(comparison.engines)
    .sort(compareText)
    .flatMap((engine) => {
      const metrics = comparison.engines[engine] ?? {};
      return Object.keys(metrics)
        .sort(compareText)
        .map((metric) => {
          const entry = metrics[metric];
          if (entry === undefined) return '';
          return (
            `<tr class="${changeClass(entry.delta, entry.significant)}"><td>${isolatedText(engine)}</td><td><code>${isolatedText(metric)}</code></td>` +
            `${numberCell(entry.a)}${numberCell(entry.b)}${deltaCell(entry.delta)}${pValueCells(entry)}` +
            `<td>${significance(entry.delta, entry.significant)}</td></tr>`
          );
        });
    });
  const summary =
    rows.length === 0
      ? '<p>No metric in common with the baseline.</p>'
      : '<div class="scroll"><table class="comparison" data-sortable><thead><tr><th scope="col">engine</th><th scope="col">metric</th>' +
        '<th scope="col" class="number">baseline</th><th scope="col" class="number">this run</th><th scope="col" class="number">delta</th>' +
        '<th scope="col" class="number">p-value</th><th scope="col" class="number">adjusted</th><th scope="col">significant</th></tr></thead>' +
        `<tbody>${rows.join('')}</tbody></table></div>`;
  const family = comparison.adjustment === undefined ? '' : `<p class="note">${escapeHtml(adjustmentSentence(comparison.adjustment))}.</p>`;
  return (
    '<section id="comparison" aria-labelledby="comparison-heading"><h2 id="comparison-heading">Against the baseline</h2>' +
    `<p>Baseline run <code>${escapeHtml(comparison.baseline_run_id)}</code>. Delta = this run − baseline: positive when this run is higher.</p>` +
    summary +
    family +
    perQueryDeltas(comparison.per_query ?? []) +
    '</section>'
  );
}

function perQueryDeltas(deltas: NonNullable<RunComparison['per_query']>): string {
  if (deltas.length === 0) return '';
  const sorted = [...deltas].sort(
    (left, right) =>
      left.delta - right.delta ||
      compareText(left.case_id, right.case_id) ||
      compareText(left.engine, right.engine) ||
      compareText(left.metric, right.metric),
  );
  const rows = sorted.map(
    (entry) =>
      `<tr><td><code>${isolatedText(entry.case_id)}</code></td><td>${isolatedText(entry.engine)}</td><td><code>${isolatedText(entry.metric)}</code></td>` +
      `${numberCell(entry.a)}${numberCell(entry.b)}${deltaCell(entry.delta)}</tr>`,
  );
  return (
    `<h3>Per-query deltas (${sorted.length})</h3><p class="note">Largest drop first.</p>` +
    tableControls(PER_QUERY_TABLE_ID, 'Filter per-query deltas') +
    `<div class="scroll"><table id="${PER_QUERY_TABLE_ID}" class="comparison-per-query" data-sortable><thead><tr>` +
    '<th scope="col">case</th><th scope="col">engine</th><th scope="col">metric</th><th scope="col" class="number">baseline</th>' +
    `<th scope="col" class="number">this run</th><th scope="col" class="number">delta</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`
  );
}

function numberCell(value: number): string {
  return `<td class="number" data-value="${value}">${value.toFixed(4)}</td>`;
}

function deltaCell(delta: number): string {
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  return `<td class="number delta" data-value="${delta}">${sign}${Math.abs(delta).toFixed(4)}</td>`;
}

/**
 * The p-value that decided (a corrected judge's, named, when one did) and,
 * beside it, its adjusted value: "-" for a comparison written before
 * p-values were adjusted.
 */
function pValueCells(entry: z.infer<typeof metricComparisonSchema>): string {
  const decision = entry.corrected_decision;
  const pValue = decision?.p_value ?? entry.p_value;
  const judge = decision === undefined ? '' : ` <span class="note">(corrected by ${isolatedText(decision.judge)})</span>`;
  const adjusted = entry.adjusted_p_value;
  return (
    `<td class="number" data-value="${pValue}">${formatPValue(pValue)}${judge}</td>` +
    (adjusted === undefined ? '<td class="number">-</td>' : `<td class="number" data-value="${adjusted}">${formatPValue(adjusted)}</td>`)
  );
}

/** Three decimals; below 0.001 reads "< 0.001" rather than a rounded 0.000. */
function formatPValue(pValue: number): string {
  return pValue < 0.001 ? '&lt; 0.001' : pValue.toFixed(3);
}

function significance(delta: number, significant: boolean): string {
  if (!significant) return 'no';
  return delta > 0 ? '▲ higher' : delta < 0 ? '▼ lower' : 'yes';
}

function changeClass(delta: number, significant: boolean): string {
  if (!significant || delta === 0) return 'unchanged';
  return delta > 0 ? 'higher' : 'lower';
}
