import type { RunComparison } from '../compare/compare-runs.js';
import { isKeyStatistic } from '../report/key-metrics.js';
import { compareText } from '../report/ordering.js';
import { linesOf } from './case-lines.js';
import { compareStoredRuns, queryChanges, type QueryChange } from './compare-stored.js';
import { found, unreadable, type Found } from './found.js';
import { Memo } from './memo.js';
import { comparePage, type ComparedRuns } from './pages/compare-page.js';
import type { Route } from './routes.js';
import type { StoredRun, ViewData } from './view-data.js';

/** The metric the compare page opens on when the runs have it: the usual headline of a search evaluation. */
const PREFERRED_METRIC = 'retrieval/ground_truth/ndcg@10';

/**
 * Comparisons of two stored runs for the view: the numbers of `assay
 * compare --json`, the per-query changes of one engine and metric, and the
 * compare page built from both. The last few of each are kept (Memo), keyed
 * by the runs' report versions.
 */
export class Comparisons {
  private readonly comparisons = new Memo<Found<RunComparison>>(8);
  private readonly changes = new Memo<Found<{ changes: QueryChange[]; unchanged: number }>>(8);

  constructor(private readonly data: ViewData) {}

  async runs(a: string, b: string): Promise<Found<[StoredRun, StoredRun]>> {
    const [runOfA, runOfB] = await Promise.all([this.data.run(a), this.data.run(b)]);
    if (!runOfA.ok) return runOfA;
    if (!runOfB.ok) return runOfB;
    return found([runOfA.value, runOfB.value]);
  }

  comparison(a: StoredRun, b: StoredRun): Promise<Found<RunComparison>> {
    return this.comparisons.get(`${a.runId}:${a.version}:${b.runId}:${b.version}`, () => compareStoredRuns(this.data, a, b));
  }

  queryChanges(a: StoredRun, b: StoredRun, engine: string, metric: string): Promise<Found<{ changes: QueryChange[]; unchanged: number }>> {
    return this.changes.get(JSON.stringify([a.runId, a.version, b.runId, b.version, engine, metric]), () => queryChanges(this.data, a, b, engine, metric));
  }

  /** The compare page's markup and status: the form alone until both runs are named, 404 with the form when one is not found. */
  async page(route: Extract<Route, { kind: 'compare-page' }>): Promise<Found<{ status: number; html: string }>> {
    const form = { a: route.a, b: route.b };
    if (route.a === undefined || route.b === undefined) return found({ status: 200, html: comparePage(form, undefined) });
    const runs = await this.runs(route.a, route.b);
    if (!runs.ok) return runs.status === 404 ? found({ status: 404, html: comparePage(form, undefined, runs.message) }) : runs;
    const [a, b] = runs.value;
    const comparison = await this.comparison(a, b);
    if (!comparison.ok) return comparison;
    const { engine, metric } = choice(comparison.value, route.engine, route.metric);
    const problem =
      route.engine !== undefined && route.engine !== engine
        ? `Engine "${route.engine}" is not compared in both runs; showing ${engine ?? 'none'}.`
        : route.metric !== undefined && route.metric !== metric
          ? `Metric "${route.metric}" is not compared for ${engine}; showing ${metric ?? 'none'}.`
          : undefined;
    let compared: ComparedRuns = { a, b, comparison: comparison.value, engine, metric, changes: undefined, lists: { a: new Map(), b: new Map() } };
    if (engine !== undefined && metric !== undefined) {
      const changed = await this.queryChanges(a, b, engine, metric);
      if (!changed.ok) return changed;
      const page = changed.value.changes.slice(route.offset, route.offset + route.limit);
      const requestIds = new Set(page.map((change) => change.request_id));
      const lists = [];
      for (const run of [a, b]) {
        const path = await this.data.casesFile(run);
        if (!path.ok) return path;
        const read = await linesOf(path.value, engine, requestIds);
        if (!read.ok) return unreadable(`cases.jsonl of run ${run.runId}, line ${read.line}: ${read.message}`);
        lists.push(read.value);
      }
      compared = {
        ...compared,
        changes: { page, total: changed.value.changes.length, unchanged: changed.value.unchanged, offset: route.offset, limit: route.limit },
        lists: { a: lists[0] ?? new Map(), b: lists[1] ?? new Map() },
      };
    }
    return found({ status: 200, html: comparePage(form, compared, problem) });
  }
}

/**
 * The engine and metric of the per-query changes: those asked for when the
 * comparison has them; else the metric is ndcg@10 when compared, or the first
 * headline metric (an average or a rating the reports show), and the engine
 * the one that lost most on it, so the page opens on what got worse.
 */
function choice(comparison: RunComparison, engine: string | undefined, metric: string | undefined): { engine?: string; metric?: string } {
  const engines = Object.keys(comparison.engines).sort(compareText);
  const metricsOf = (name: string) => Object.keys(comparison.engines[name] ?? {}).sort(compareText);
  const everyMetric = [...new Set(engines.flatMap(metricsOf))].sort(compareText);
  const wanted =
    metric !== undefined && everyMetric.includes(metric)
      ? metric
      : everyMetric.includes(PREFERRED_METRIC)
        ? PREFERRED_METRIC
        : (everyMetric.find((name) => isKeyStatistic(`${name}/average`) || isKeyStatistic(`${name}/percentage`)) ?? everyMetric[0]);
  const chosenEngine =
    engine !== undefined && engines.includes(engine)
      ? engine
      : engines
          .filter((name) => wanted !== undefined && metricsOf(name).includes(wanted))
          .sort((left, right) => (comparison.engines[left]?.[wanted ?? '']?.delta ?? 0) - (comparison.engines[right]?.[wanted ?? '']?.delta ?? 0))[0] ?? engines[0];
  if (chosenEngine === undefined) return {};
  const metrics = metricsOf(chosenEngine);
  return { engine: chosenEngine, metric: wanted !== undefined && metrics.includes(wanted) ? wanted : metrics[0] };
}
