import { escapeHtml, isolated } from './escape.js';
import { formatInterval, formatValue, type KeyStatistic, type StatisticValue } from './key-statistics.js';

/** One engine's bar: no value draws no bar and says so. */
export interface Bar {
  readonly engine: string;
  readonly value: StatisticValue | undefined;
}

// Geometry in SVG user units (1 unit = 1 CSS pixel at full width).
const WIDTH = 520;
const ROW_HEIGHT = 28;
const BAR_HEIGHT = 16;
const TOP = 24;
const BOTTOM = 44;
const VALUE_SPACE = 64;
const RIGHT = 8;
/** A generous width of one character at the chart's 12px font, to size the label column without measuring text. */
const CHARACTER_WIDTH = 7.5;
/** Space between an engine's name and the axis, and before the name. */
const LABEL_PADDING = 8;
const TICK_INTERVALS = 5;

/**
 * A horizontal bar chart of one key statistic across engines, as inline SVG:
 * engines down the left, the value along the bottom axis (0 to 1, or to a
 * round number above the largest value or interval bound), the value printed
 * after each bar, and the 95% interval as a whisker when there is one. The
 * `<title>` and `<desc>` give screen readers the statistic and every value.
 */
export function barChart(statistic: KeyStatistic, bars: readonly Bar[], id: string): string {
  const longest = Math.max(0, ...bars.map((bar) => bar.engine.length));
  const labelWidth = Math.min(168, Math.max(48, Math.ceil(longest * CHARACTER_WIDTH) + 2 * LABEL_PADDING));
  const plotLeft = labelWidth;
  const plotWidth = WIDTH - labelWidth - VALUE_SPACE - RIGHT;
  const plotBottom = TOP + bars.length * ROW_HEIGHT;
  const height = plotBottom + BOTTOM;
  const { low, high } = domain(bars);
  const x = (value: number): number => plotLeft + ((value - low) / (high - low)) * plotWidth;

  const ticks = Array.from({ length: TICK_INTERVALS + 1 }, (_, index) => low + ((high - low) * index) / TICK_INTERVALS);
  const grid = ticks.map((tick) => {
    const tickX = number(x(tick));
    return (
      `<line class="grid" x1="${tickX}" y1="${TOP}" x2="${tickX}" y2="${plotBottom}"/>` +
      `<text class="tick" x="${tickX}" y="${plotBottom + 14}" text-anchor="middle">${tickLabel(statistic, tick)}</text>`
    );
  });
  const rows = bars.map((bar, index) => barRow(statistic, bar, TOP + index * ROW_HEIGHT, x, labelWidth));
  const axisLabel = statistic.kind === 'percentage' ? 'share of “yes” ratings' : 'average over cases';
  const titleId = `${id}-title`;
  const descriptionId = `${id}-desc`;
  return (
    `<svg class="bar-chart" role="img" aria-labelledby="${titleId} ${descriptionId}" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}">` +
    `<title id="${titleId}">${escapeHtml(isolated(statistic.name))}</title>` +
    `<desc id="${descriptionId}">${escapeHtml(description(statistic, bars))}</desc>` +
    grid.join('') +
    `<line class="axis" x1="${number(x(0))}" y1="${TOP}" x2="${number(x(0))}" y2="${plotBottom}"/>` +
    `<line class="axis" x1="${plotLeft}" y1="${plotBottom}" x2="${plotLeft + plotWidth}" y2="${plotBottom}"/>` +
    `<text class="axis-label" x="${labelWidth - LABEL_PADDING}" y="${TOP - 8}" text-anchor="end">engine</text>` +
    rows.join('') +
    `<text class="axis-label" x="${number(plotLeft + plotWidth / 2)}" y="${plotBottom + 34}" text-anchor="middle">${axisLabel}</text>` +
    '</svg>'
  );
}

function barRow(statistic: KeyStatistic, bar: Bar, top: number, x: (value: number) => number, labelWidth: number): string {
  const middle = top + ROW_HEIGHT / 2;
  const room = Math.floor((labelWidth - 2 * LABEL_PADDING) / CHARACTER_WIDTH);
  const shortName = bar.engine.length > room ? `${bar.engine.slice(0, Math.max(1, room - 1))}…` : bar.engine;
  const label =
    `<text class="engine" x="${labelWidth - LABEL_PADDING}" y="${middle + 4}" text-anchor="end">` +
    `<title>${escapeHtml(isolated(bar.engine))}</title>${escapeHtml(isolated(shortName))}</text>`;
  if (bar.value === undefined) return `${label}<text class="no-value" x="${number(x(0)) + 4}" y="${middle + 4}">no value</text>`;
  const { value, interval } = bar.value;
  const start = Math.min(x(0), x(value));
  const rectangle = `<rect class="bar" x="${number(start)}" y="${middle - BAR_HEIGHT / 2}" width="${number(Math.abs(x(value) - x(0)))}" height="${BAR_HEIGHT}"/>`;
  let whisker = '';
  let valueX = Math.max(x(0), x(value));
  if (interval !== undefined) {
    const [left, right] = [x(interval.low), x(interval.high)].map(number) as [number, number];
    whisker = `<path class="whisker" d="M${left} ${middle}H${right}M${left} ${middle - 6}V${middle + 6}M${right} ${middle - 6}V${middle + 6}"/>`;
    valueX = Math.max(valueX, right);
  }
  const valueText = `<text class="value" x="${number(valueX + 4)}" y="${middle + 4}">${formatValue(statistic, value)}</text>`;
  return label + rectangle + whisker + valueText;
}

/** From 0 (or below, for negative values) to 1 (or a round number above every value and bound). */
function domain(bars: readonly Bar[]): { low: number; high: number } {
  const numbers = bars.flatMap((bar) =>
    bar.value === undefined
      ? []
      : [bar.value.value, ...(bar.value.interval === undefined ? [] : [bar.value.interval.low, bar.value.interval.high])],
  );
  const smallest = Math.min(0, ...numbers);
  return { low: smallest < 0 ? -roundUp(-smallest) : 0, high: roundUp(Math.max(1, ...numbers)) };
}

/** The smallest of 1, 2, 2.5, 5 times a power of ten that is at least `value` (> 0). */
function roundUp(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const multiple of [1, 2, 2.5, 5]) if (multiple * power >= value) return multiple * power;
  return 10 * power;
}

function tickLabel(statistic: KeyStatistic, tick: number): string {
  return statistic.kind === 'percentage' ? `${Math.round(tick * 100)}%` : String(Number(tick.toFixed(2)));
}

function description(statistic: KeyStatistic, bars: readonly Bar[]): string {
  return bars
    .map((bar) => {
      if (bar.value === undefined) return `${isolated(bar.engine)}: no value`;
      const interval = bar.value.interval === undefined ? '' : ` (95% interval ${formatInterval(statistic, bar.value.interval)})`;
      return `${isolated(bar.engine)}: ${formatValue(statistic, bar.value.value)}${interval}`;
    })
    .join('; ');
}

/** A coordinate with at most 2 decimals, so the markup stays short. */
function number(value: number): number {
  return Math.round(value * 100) / 100;
}
