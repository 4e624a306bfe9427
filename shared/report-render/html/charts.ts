import type { Report } from '../../schema/report.js';
import { barChart } from './bar-chart.js';
import { escapeHtml, isolated, isolatedText } from './escape.js';
import { statisticValue, type KeyStatistics } from './key-statistics.js';

/** One bar chart per key statistic, engines side by side; no section when there is no key statistic. */
export function chartsSection(report: Report, keys: KeyStatistics): string {
  if (keys.statistics.length === 0) return '';
  const figures = keys.statistics.map((statistic, index) => {
    const bars = keys.engines.map((engine) => ({ engine, value: statisticValue(report, engine, statistic) }));
    return (
      `<figure class="chart"><figcaption title="${escapeHtml(isolated(statistic.name))}"><code>${isolatedText(statistic.label)}</code></figcaption>` +
      `${barChart(statistic, bars, `chart-${index + 1}`)}</figure>`
    );
  });
  const hasIntervals = keys.statistics.some((statistic) =>
    keys.engines.some((engine) => statisticValue(report, engine, statistic)?.interval !== undefined),
  );
  const note = hasIntervals ? '<p class="note">Whiskers: 95% bootstrap interval.</p>' : '';
  return (
    '<section id="charts" aria-labelledby="charts-heading"><h2 id="charts-heading">Charts</h2>' +
    `${note}<div class="chart-grid">${figures.join('')}</div></section>`
  );
}
