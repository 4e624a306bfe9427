import { escapeHtml, isolated, isolatedText } from '../../report-render/html/escape.js';
import { valueAxis } from './value-axis.js';

/** One engine's (or judge's) value in one run. */
export interface TrendPoint {
  readonly value: number;
  /** The run's report. */
  readonly href: string;
  /** What a tooltip and a screen reader say of the point: engine, run, time, value, and the regression if any. */
  readonly label: string;
  /** The run's comparison found this metric significantly worse. */
  readonly regression: boolean;
}

/** One line of a chart: a value per charted run, undefined where the run has none. */
export interface TrendSeries {
  readonly name: string;
  readonly points: readonly (TrendPoint | undefined)[];
}

export interface TrendChartInput {
  /** Unique on the page: the ids of the chart's title and description derive from it. */
  readonly id: string;
  readonly title: string;
  /** The charted runs' times (ISO), oldest first: one x position each. */
  readonly runTimes: readonly string[];
  readonly series: readonly TrendSeries[];
  readonly formatValue: (value: number) => string;
  /** Values are shares from 0 to 1, labelled as percentages on the axis. */
  readonly percent?: boolean;
  /** What a ringed point means, in the legend and the description (default "significant regression", plural "significant regressions"). */
  readonly ring?: { readonly one: string; readonly many: string };
}

const REGRESSION_RING = { one: 'significant regression', many: 'significant regressions' };

// Geometry in SVG user units (1 unit = 1 CSS pixel at full width).
const WIDTH = 560;
const HEIGHT = 230;
const LEFT = 56;
/** Room for half of the newest run's date label, centred under its point. */
const RIGHT = 36;
const TOP = 12;
const BOTTOM = 40;
const MAX_TIME_LABELS = 6;
/** Marker shapes, one per series after its colour, so engines differ without colour too. */
const SHAPES = ['circle', 'square', 'diamond', 'triangle'] as const;

/**
 * A trend of one statistic over a suite's runs, as inline SVG: runs along
 * the bottom in run order, equally spaced and labelled with their dates, the
 * value up the side on an axis fitted to the values (its ticks labelled), one
 * line per series (colour, dash pattern and marker shape tell them apart),
 * and a marker per run and series that links to the run's report. A point
 * whose run found the metric significantly worse has a ring. The points are
 * left out of the tab order (a chart of a hundred runs would be hundreds of
 * stops): the runs table beside the chart has the same links for the keyboard.
 */
export function trendChart(input: TrendChartInput): string {
  const values = input.series.flatMap((series) => series.points.flatMap((point) => (point === undefined ? [] : [point.value])));
  const axis = valueAxis(values, input.percent === true);
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotBottom = HEIGHT - BOTTOM;
  const count = input.runTimes.length;
  const x = (index: number): number => round(LEFT + (count <= 1 ? plotWidth / 2 : (index * plotWidth) / (count - 1)));
  const y = (value: number): number => round(plotBottom - ((value - axis.low) / (axis.high - axis.low)) * (plotBottom - TOP));

  const grid = axis.ticks.map(
    (tick) =>
      `<line class="grid" x1="${LEFT}" y1="${y(tick)}" x2="${WIDTH - RIGHT}" y2="${y(tick)}"/>` +
      `<text x="${LEFT - 6}" y="${y(tick) + 4}" text-anchor="end">${escapeHtml(axis.label(tick))}</text>`,
  );
  const times = timeLabels(input.runTimes).map(
    ({ index, text }) => `<text x="${x(index)}" y="${plotBottom + 16}" text-anchor="middle">${escapeHtml(text)}</text>`,
  );
  const lines = input.series.map((series, seriesIndex) => {
    let path = '';
    let drawing = false;
    series.points.forEach((point, index) => {
      if (point === undefined) {
        drawing = false;
        return;
      }
      path += `${drawing ? 'L' : 'M'}${x(index)} ${y(point.value)}`;
      drawing = true;
    });
    return path === '' ? '' : `<path class="line series-${seriesIndex % 6}" d="${path}"/>`;
  });
  const markers = input.series.flatMap((series, seriesIndex) =>
    series.points.flatMap((point, index) => (point === undefined ? [] : [marker(point, x(index), y(point.value), seriesIndex)])),
  );
  const titleId = `${input.id}-title`;
  const descriptionId = `${input.id}-desc`;
  return (
    `<svg class="trend-chart" role="group" aria-labelledby="${titleId} ${descriptionId}" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}">` +
    `<title id="${titleId}">${escapeHtml(isolated(input.title))}</title>` +
    `<desc id="${descriptionId}">${escapeHtml(description(input))}</desc>` +
    grid.join('') +
    `<line class="axis" x1="${LEFT}" y1="${plotBottom}" x2="${WIDTH - RIGHT}" y2="${plotBottom}"/>` +
    times.join('') +
    `<text x="${round(LEFT + plotWidth / 2)}" y="${HEIGHT - 6}" text-anchor="middle">run (oldest to newest)</text>` +
    lines.join('') +
    markers.join('') +
    '</svg>' +
    legend(input.series, input.ring ?? REGRESSION_RING)
  );
}

function marker(point: TrendPoint, x: number, y: number, seriesIndex: number): string {
  const shape = SHAPES[seriesIndex % SHAPES.length] ?? 'circle';
  const classes = `point series-${seriesIndex % 6}${point.regression ? ' regression' : ''}`;
  const ring = point.regression ? `<circle class="regression-ring" cx="${x}" cy="${y}" r="7.5"/>` : '';
  return `<a href="${escapeHtml(point.href)}" tabindex="-1"><title>${escapeHtml(point.label)}</title>${ring}${shapeAt(shape, x, y, classes)}</a>`;
}

function shapeAt(shape: (typeof SHAPES)[number], x: number, y: number, classes: string): string {
  switch (shape) {
    case 'circle':
      return `<circle class="${classes}" cx="${x}" cy="${y}" r="4"/>`;
    case 'square':
      return `<rect class="${classes}" x="${round(x - 3.5)}" y="${round(y - 3.5)}" width="7" height="7"/>`;
    case 'diamond':
      return `<path class="${classes}" d="M${x} ${round(y - 5)}L${round(x + 5)} ${y}L${x} ${round(y + 5)}L${round(x - 5)} ${y}Z"/>`;
    case 'triangle':
      return `<path class="${classes}" d="M${x} ${round(y - 5)}L${round(x + 5)} ${round(y + 4)}L${round(x - 5)} ${round(y + 4)}Z"/>`;
  }
}

function legend(series: readonly TrendSeries[], ring: { readonly one: string }): string {
  const entries = series.map((entry, index) => {
    const shape = SHAPES[index % SHAPES.length] ?? 'circle';
    return (
      `<li><svg class="swatch" aria-hidden="true" viewBox="0 0 30 12" width="30" height="12"><path class="line series-${index % 6}" d="M0 6H30"/>` +
      `${shapeAt(shape, 15, 6, `point series-${index % 6}`)}</svg>${isolatedText(entry.name)}</li>`
    );
  });
  if (series.some((entry) => entry.points.some((point) => point?.regression === true))) {
    entries.push(
      `<li><svg class="swatch" aria-hidden="true" viewBox="0 0 30 12" width="30" height="12"><circle class="regression-ring" cx="15" cy="6" r="5"/></svg>ring: ${ring.one}</li>`,
    );
  }
  return `<ul class="legend">${entries.join('')}</ul>`;
}

/** Up to MAX_TIME_LABELS runs, evenly spread, labelled with their date, or date and time when two labelled runs share a date. */
function timeLabels(runTimes: readonly string[]): { index: number; text: string }[] {
  if (runTimes.length === 0) return [];
  const slots = Math.min(MAX_TIME_LABELS, runTimes.length);
  const indexes = [
    ...new Set(Array.from({ length: slots }, (_, slot) => (slots === 1 ? 0 : Math.round((slot * (runTimes.length - 1)) / (slots - 1))))),
  ];
  const dates = indexes.map((index) => (runTimes[index] ?? '').slice(0, 10));
  const withTime = new Set(dates).size < dates.length;
  return indexes.map((index) => {
    const time = runTimes[index] ?? '';
    return { index, text: withTime ? `${time.slice(5, 10)} ${time.slice(11, 16)}` : time.slice(0, 10) };
  });
}

function description(input: TrendChartInput): string {
  const ring = input.ring ?? REGRESSION_RING;
  const first = input.runTimes[0] ?? '';
  const last = input.runTimes.at(-1) ?? '';
  const parts = input.series.map((series) => {
    const points = series.points.filter((point): point is TrendPoint => point !== undefined);
    const newest = points.at(-1);
    const oldest = points[0];
    if (newest === undefined || oldest === undefined) return `${isolated(series.name)}: no value`;
    const regressions = points.filter((point) => point.regression).length;
    const lowest = Math.min(...points.map((point) => point.value));
    return (
      `${isolated(series.name)}: ${points.length} runs, first ${input.formatValue(oldest.value)}, newest ${input.formatValue(newest.value)}, lowest ${input.formatValue(lowest)}` +
      (regressions > 0 ? `, ${regressions} ${regressions === 1 ? ring.one : ring.many}` : '')
    );
  });
  return `${input.runTimes.length} runs from ${first.slice(0, 10)} to ${last.slice(0, 10)}. ${parts.join('; ')}. The runs table lists every run with a link to its report.`;
}

/** A coordinate with at most 2 decimals, so the markup stays short. */
function round(value: number): number {
  return Math.round(value * 100) / 100;
}
