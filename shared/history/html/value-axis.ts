/** The value axis of a trend chart: its bounds, its ticks and how a tick reads. */
export interface ValueAxis {
  readonly low: number;
  readonly high: number;
  readonly ticks: readonly number[];
  readonly label: (tick: number) => string;
}

/** The value axis: from a round number at or below the lowest value to one at or above the highest, in 3 to 6 round steps. */
export function valueAxis(values: readonly number[], percent: boolean): ValueAxis {
  let lowest = values.length === 0 ? 0 : Math.min(...values);
  let highest = values.length === 0 ? 1 : Math.max(...values);
  const nonNegative = lowest >= 0;
  if (highest === lowest) {
    // A flat line sits mid-chart, between round ticks either side of it.
    const pad = Math.max(Math.abs(highest) * 0.05, 0.01);
    lowest -= pad;
    highest += pad;
  }
  const step = roundStep((highest - lowest) / 4);
  const low = Math.max(nonNegative ? 0 : -Infinity, Math.floor(lowest / step) * step);
  let high = Math.ceil(highest / step) * step;
  if (high <= low) high = low + step;
  const count = Math.round((high - low) / step);
  const ticks = Array.from({ length: count + 1 }, (_, index) => low + index * step);
  const decimals = decimalsOf(step);
  return { low, high, ticks, label: (tick) => (percent ? `${(tick * 100).toFixed(Math.max(0, decimals - 2))}%` : tick.toFixed(decimals)) };
}

/** The smallest of 1, 2, 2.5 and 5 times a power of ten that is at least `value` (> 0). */
function roundStep(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const multiple of [1, 2, 2.5, 5]) if (multiple * power >= value - 1e-12) return multiple * power;
  return 10 * power;
}

/** The decimals that write a step exactly: 2 for 0.25, 0 for 50. Ticks are multiples of the step, so they need no more. */
function decimalsOf(step: number): number {
  for (let decimals = 0; decimals < 12; decimals++) {
    const scaled = step * 10 ** decimals;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-9 * Math.max(1, scaled)) return decimals;
  }
  return 12;
}
