/**
 * The page's whole style sheet. Local system fonts only; no colour carries
 * meaning alone (a change also reads ▲/▼, a best value is bold). Print: no
 * filter box, no scrolling boxes, charts and rows kept whole across pages,
 * colours printed as on screen.
 */
export const STYLES = `
:root { color-scheme: light; --text: #1d232b; --muted: #5b6673; --line: #d9dee4; --soft: #f4f6f8; --accent: #3b6ea8; --bad: #b3261e; --good: #1f7a3f; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--text); background: #fff; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 28px 48px; }
h1 { font-size: 1.7rem; margin: 0 0 12px; line-height: 1.25; overflow-wrap: anywhere; }
h1 .run { font-size: 1rem; font-weight: 400; color: var(--muted); }
h2 { font-size: 1.25rem; margin: 36px 0 10px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
h3 { font-size: 1.05rem; margin: 22px 0 6px; }
code { font: 0.9em/1.4 ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; overflow-wrap: anywhere; }
.kicker { margin: 0; color: var(--muted); text-transform: uppercase; letter-spacing: 0.08em; font-size: 0.75rem; }
.note { color: var(--muted); font-size: 0.85rem; margin: 6px 0; }
.facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(240px, 1fr)); gap: 6px 24px; margin: 0 0 14px; }
.facts div { min-width: 0; }
.facts dt { color: var(--muted); font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.05em; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.tiles { list-style: none; display: flex; flex-wrap: wrap; gap: 10px; padding: 0; margin: 0; }
.tiles li { border: 1px solid var(--line); border-radius: 6px; padding: 6px 14px; background: var(--soft); color: var(--muted); }
.tiles .tile-count { display: block; font-size: 1.35rem; font-weight: 600; color: var(--text); font-variant-numeric: tabular-nums; }
.tiles li.attention { border-color: var(--bad); }
.tiles li.attention .tile-count { color: var(--bad); }
nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: 4px 18px; padding: 10px 0; margin: 18px 0 0; border-top: 1px solid var(--line); border-bottom: 1px solid var(--line); }
a { color: var(--accent); }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-size: 0.85rem; }
th, td { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
thead th { background: var(--soft); border-bottom: 2px solid var(--line); white-space: nowrap; vertical-align: bottom; }
.per-query thead th.metric { white-space: normal; min-width: 7em; max-width: 12em; }
tfoot th, tfoot td { font-weight: 600; border-top: 2px solid var(--line); }
tbody tr:nth-child(even) { background: #fafbfc; }
.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.missing { color: var(--muted); }
.interval, .count { color: var(--muted); font-size: 0.85em; }
.error { white-space: pre-wrap; overflow-wrap: anywhere; max-width: 70ch; }
.missing-cases { columns: 16em; margin: 0; padding-left: 1.2em; }
.chart-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(440px, 1fr)); gap: 14px 22px; }
.chart { margin: 0; padding: 10px 12px 4px; border: 1px solid var(--line); border-radius: 6px; break-inside: avoid; }
.chart figcaption { font-size: 0.85rem; font-weight: 600; margin-bottom: 4px; overflow-wrap: anywhere; }
.bar-chart { display: block; width: 100%; height: auto; font-size: 12px; }
.bar-chart text { fill: var(--text); }
.bar-chart .tick, .bar-chart .axis-label, .bar-chart .no-value { fill: var(--muted); font-size: 11px; }
.bar-chart .bar { fill: var(--accent); }
.bar-chart .grid { stroke: var(--line); stroke-width: 1; }
.bar-chart .axis { stroke: var(--muted); stroke-width: 1; }
.bar-chart .whisker { stroke: var(--text); stroke-width: 1.5; fill: none; }
.bar-chart .value { font-variant-numeric: tabular-nums; }
.table-controls { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 10px; margin: 8px 0; font-size: 0.9rem; }
.table-controls[hidden] { display: none; }
.table-controls input { font: inherit; padding: 3px 8px; min-width: 18em; border: 1px solid #9aa5b1; border-radius: 4px; }
.table-controls output { color: var(--muted); }
th button.sort { all: unset; cursor: pointer; }
th button.sort:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
th button.sort::after { content: " ↕"; color: #9aa5b1; }
th[aria-sort="ascending"] button.sort::after { content: " ▲"; color: var(--text); }
th[aria-sort="descending"] button.sort::after { content: " ▼"; color: var(--text); }
tr.higher .delta, tr.higher td:last-child { color: var(--good); font-weight: 600; }
tr.lower .delta, tr.lower td:last-child { color: var(--bad); font-weight: 600; }
@media print {
  @page { margin: 14mm; }
  * { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
  body { font-size: 10pt; }
  main { max-width: none; padding: 0; }
  nav, .table-controls { display: none !important; }
  .scroll { overflow: visible; }
  table { font-size: 8pt; }
  thead { display: table-header-group; }
  tr, figure, .tiles li { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  /* One chart a row at its drawn width: the chart's text stays at 9pt instead of shrinking with a second column. */
  .chart-grid { grid-template-columns: minmax(0, 520px); }
  /* The per-query table fits the page width: equal columns, wrapped text. */
  table.per-query { width: 100%; table-layout: fixed; font-size: 6.5pt; }
  table.per-query th, table.per-query td { padding: 2px 3px; white-space: normal; overflow-wrap: anywhere; }
  .per-query thead th.metric { min-width: 0; max-width: none; }
  th button.sort::after { content: ""; }
}
`;
