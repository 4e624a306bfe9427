import { formatAverage, formatPercentage, isKeyStatistic } from '../../report/key-metrics.js';
import { compareText } from '../../report/ordering.js';
import { isolated, isolatedText } from '../../report-render/html/escape.js';
import { regressionEvidence } from '../../report-render/regression-text.js';
import type { HistoryRow } from '../history-row.js';
import type { HistoryLinks } from './history-links.js';
import { trendChart, type TrendSeries } from './trend-chart.js';

const PASS_RATE = 'thresholds/pass/average';
const LATENCY = 'engine/latency_ms/p95';
const SUFFIX = /\/(average|percentage)$/;

/**
 * The charts of a history: one per headline statistic any charted run has
 * (the report's key statistics and the threshold pass rate, by name), one
 * line per engine; then the judges' agreement with the human labels (Cohen's
 * kappa, one line per judge) and the engines' p95 latency when runs have them.
 */
export function historyCharts(runs: readonly HistoryRow[], links: HistoryLinks): string {
  const engines = [...new Set(runs.flatMap((row) => Object.keys(row.engines)))].sort(compareText);
  const statistics = [...new Set(runs.flatMap((row) => Object.values(row.engines).flatMap((values) => Object.keys(values))))]
    .filter((name) => isKeyStatistic(name) || name === PASS_RATE)
    .sort(compareText);
  const runTimes = runs.map((row) => row.created_at);
  const figures: string[] = [];
  const figure = (title: string, series: TrendSeries[], formatValue: (value: number) => string, percent = false): void => {
    if (!series.some((entry) => entry.points.some((point) => point !== undefined))) return;
    const id = `trend-${figures.length + 1}`;
    figures.push(
      `<figure class="chart"><figcaption><code>${isolatedText(title)}</code></figcaption>${trendChart({ id, title, runTimes, series, formatValue, percent })}</figure>`,
    );
  };
  for (const statistic of [...statistics, LATENCY]) {
    const format = formatOf(statistic);
    const regressionMetric = statistic.replace(SUFFIX, '');
    figure(
      statistic,
      engines.map((engine) => ({
        name: engine,
        points: runs.map((row) => {
          const values = Object.hasOwn(row.engines, engine) ? row.engines[engine] : undefined;
          const value = values !== undefined && Object.hasOwn(values, statistic) ? values[statistic] : undefined;
          if (value === undefined) return undefined;
          const regression = row.regressions.find((entry) => entry.engine === engine && entry.metric === regressionMetric);
          const low = values?.[`${statistic}/ci_low`];
          const high = values?.[`${statistic}/ci_high`];
          const interval = low !== undefined && high !== undefined ? ` [${format(low)}, ${format(high)}]` : '';
          const regressed =
            regression === undefined
              ? ''
              : ` · significant regression: ${signed(regression.delta)}, ${regressionEvidence(regression, row.adjustment)}`;
          return {
            value,
            href: links.report(row.run_id),
            label: `${isolated(engine)} · ${row.run_id} · ${row.created_at} · ${format(value)}${interval}${regressed}`,
            regression: regression !== undefined,
          };
        }),
      })),
      format,
      statistic.endsWith('/percentage'),
    );
  }
  const judges = [...new Set(runs.flatMap((row) => Object.keys(row.agreement)))].sort(compareText);
  figure(
    "judge agreement with the human labels (Cohen's kappa)",
    judges.map((judge) => ({
      name: judge,
      points: runs.map((row) => {
        const kappa = Object.hasOwn(row.agreement, judge) ? row.agreement[judge]?.cohen_kappa : undefined;
        if (kappa === undefined || kappa === null) return undefined;
        return {
          value: kappa,
          href: links.report(row.run_id),
          label: `${isolated(judge)} · ${row.run_id} · ${row.created_at} · kappa ${kappa.toFixed(4)}`,
          regression: false,
        };
      }),
    })),
    (value) => value.toFixed(4),
  );
  if (figures.length === 0) return '';
  return `<div class="chart-grid">${figures.join('')}</div>`;
}

function formatOf(statistic: string): (value: number) => string {
  if (statistic.endsWith('/percentage')) return formatPercentage;
  if (statistic.startsWith('engine/latency_ms/')) return (value) => `${Math.round(value)} ms`;
  return formatAverage;
}

function signed(delta: number): string {
  return `${delta > 0 ? '+' : delta < 0 ? '−' : '±'}${Math.abs(delta).toFixed(4)}`;
}
