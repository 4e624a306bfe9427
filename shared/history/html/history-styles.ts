import { STYLES } from '../../report-render/html/styles.js';

/**
 * report.html's style sheet and what a history page adds: the trend charts
 * (six series told apart by colour, dash pattern and marker shape, so
 * colour never carries meaning alone) and their legends.
 */
export const HISTORY_STYLES = `${STYLES}
.trend-chart { display: block; width: 100%; height: auto; font-size: 12px; }
.trend-chart text { fill: var(--muted); font-size: 11px; }
.trend-chart .grid { stroke: var(--line); stroke-width: 1; }
.trend-chart .axis { stroke: var(--muted); stroke-width: 1; }
.line { fill: none; stroke-width: 2; }
.point { stroke: #fff; stroke-width: 1; }
.trend-chart a:hover .point { stroke: var(--text); stroke-width: 2; }
.regression-ring { fill: none; stroke: var(--bad); stroke-width: 2; }
.series-0 { stroke: #3b6ea8; } .point.series-0 { fill: #3b6ea8; }
.series-1 { stroke: #c2571a; stroke-dasharray: 7 3; } .point.series-1 { fill: #c2571a; stroke-dasharray: none; }
.series-2 { stroke: #2e8540; stroke-dasharray: 2 3; } .point.series-2 { fill: #2e8540; stroke-dasharray: none; }
.series-3 { stroke: #7b4fa6; stroke-dasharray: 9 3 2 3; } .point.series-3 { fill: #7b4fa6; stroke-dasharray: none; }
.series-4 { stroke: #8a6d00; stroke-dasharray: 4 2; } .point.series-4 { fill: #8a6d00; stroke-dasharray: none; }
.series-5 { stroke: #0f7c8c; stroke-dasharray: 12 4; } .point.series-5 { fill: #0f7c8c; stroke-dasharray: none; }
.legend { list-style: none; display: flex; flex-wrap: wrap; gap: 2px 16px; padding: 0; margin: 4px 0 6px; font-size: 0.8rem; }
.legend li { display: flex; align-items: center; gap: 6px; overflow-wrap: anywhere; }
.legend .swatch { flex: none; }
table.runs code, table.runs time { overflow-wrap: normal; white-space: nowrap; }
.changed { color: var(--bad); font-size: 0.8em; font-weight: 600; }
ul.regressions { margin: 4px 0 0; padding-left: 1.1em; text-align: left; white-space: normal; }
.warning { border-left: 4px solid var(--bad); padding: 4px 12px; background: #fdf3f2; }
`;
