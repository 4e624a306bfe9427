import type { RunComparison } from '../schema/compare-json.js';
import { linesOf } from './case-lines.js';
import { chooseComparedChange } from './compare-choice.js';
import { compareStoredRuns, queryChanges, type QueryChanges } from './compare-stored.js';
import { found, unreadable, type Found } from './found.js';
import { Memo } from './memo.js';
import { comparePage, type ComparedRuns } from './pages/compare-page.js';
import type { Route } from './routes.js';
import type { CasesFile, StoredRun, ViewData } from './view-data.js';

/**
 * Comparisons of two stored runs for the view: the numbers of `assay
 * compare --json`, the per-query changes of one engine and metric, and the
 * compare page built from both. The last few of each are kept (Memo), keyed
 * by the versions of the runs' report.json and cases.jsonl, so a changed or
 * repaired file is read again; a comparison that failed is not kept.
 */
export class Comparisons {
  private readonly comparisons = new Memo<Found<RunComparison>>(8, (value) => value.ok);
  private readonly changes = new Memo<Found<QueryChanges>>(8, (value) => value.ok);

  constructor(private readonly data: ViewData) {}

  async runs(a: string, b: string): Promise<Found<[StoredRun, StoredRun]>> {
    const [runOfA, runOfB] = await Promise.all([this.data.run(a), this.data.run(b)]);
    if (!runOfA.ok) return runOfA;
    if (!runOfB.ok) return runOfB;
    return found([runOfA.value, runOfB.value]);
  }

  async comparison(a: StoredRun, b: StoredRun): Promise<Found<RunComparison>> {
    const files = await this.casesFiles(a, b);
    if (!files.ok) return files;
    const [ofA, ofB] = files.value;
    return this.comparisons.get(JSON.stringify([a.runId, a.version, ofA.version, b.runId, b.version, ofB.version]), () =>
      compareStoredRuns(a, b, files.value),
    );
  }

  async queryChanges(a: StoredRun, b: StoredRun, engine: string, metric: string): Promise<Found<QueryChanges>> {
    const files = await this.casesFiles(a, b);
    if (!files.ok) return files;
    const [ofA, ofB] = files.value;
    return this.changes.get(JSON.stringify([a.runId, a.version, ofA.version, b.runId, b.version, ofB.version, engine, metric]), () =>
      queryChanges(a, b, files.value, engine, metric),
    );
  }

  /** Both runs' cases.jsonl as they are now. */
  private async casesFiles(a: StoredRun, b: StoredRun): Promise<Found<[CasesFile, CasesFile]>> {
    const [ofA, ofB] = await Promise.all([this.data.casesFile(a), this.data.casesFile(b)]);
    if (!ofA.ok) return ofA;
    if (!ofB.ok) return ofB;
    return found([ofA.value, ofB.value]);
  }

  /** The compare page's markup and status: the form alone until both runs are named, 404 with the form when one is not found. */
  async page(route: Extract<Route, { kind: 'compare-page' }>): Promise<Found<{ status: number; html: string }>> {
    const form = { a: route.a, b: route.b };
    if (route.a === undefined || route.b === undefined) return found({ status: 200, html: comparePage(form, undefined) });
    const runs = await this.runs(route.a, route.b);
    if (!runs.ok) return runs.error.status === 404 ? found({ status: 404, html: comparePage(form, undefined, runs.error.message) }) : runs;
    const [a, b] = runs.value;
    const comparison = await this.comparison(a, b);
    if (!comparison.ok) return comparison;
    const choice = chooseComparedChange(comparison.value, route);
    let compared: ComparedRuns = { a, b, comparison: comparison.value, choice, changes: undefined, lists: { a: new Map(), b: new Map() } };
    if (choice !== undefined) {
      const changed = await this.queryChanges(a, b, choice.engine, choice.metric);
      if (!changed.ok) return changed;
      const page = changed.value.changes.slice(route.offset, route.offset + route.limit);
      const requestIds = new Set(page.map((change) => change.request_id));
      const lists = [];
      for (const run of [a, b]) {
        const file = await this.data.casesFile(run);
        if (!file.ok) return file;
        const read = await linesOf(file.value.path, choice.engine, requestIds);
        if (!read.ok) return unreadable(`cases.jsonl of run ${run.runId}, line ${read.error.line}: ${read.error.message}`);
        lists.push(read.value);
      }
      const { changes, losses, unchanged } = changed.value;
      compared = {
        ...compared,
        changes: { page, total: changes.length, losses, unchanged, offset: route.offset, limit: route.limit },
        lists: { a: lists[0] ?? new Map(), b: lists[1] ?? new Map() },
      };
    }
    return found({ status: 200, html: comparePage(form, compared, choice?.problem) });
  }
}
