import { renderHistoryHtml } from '../history/history-html.js';
import { readCasePage } from './case-lines.js';
import { Comparisons } from './compare-view.js';
import { DATA_POLICY, HISTORY_PAGE_POLICY, storedPagePolicy, VIEW_PAGE_POLICY } from './content-policy.js';
import { found, unreadable, type Found } from './found.js';
import { casesPage } from './pages/cases-page.js';
import { errorPage } from './pages/error-page.js';
import { viewNavigation } from './pages/layout.js';
import { runPage } from './pages/run-page.js';
import { suitesPage } from './pages/suites-page.js';
import { viewPaths } from './pages/view-paths.js';
import { parseRoute, type Route } from './routes.js';
import type { ViewData } from './view-data.js';

export interface ViewResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string | Uint8Array;
  /** The Content-Security-Policy header of the answer (content-policy.ts). */
  readonly policy: string;
}

const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Headers of every answer besides its Content-Security-Policy (which is the
 * answer's own: ViewResponse.policy): nothing cached, nothing sniffed, never
 * framed, no referrer sent on.
 */
export const VIEW_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

/**
 * `assay view` without its HTTP server: a request's method and target in, the
 * answer out. Pages are HTML rendered here from the same functions as the
 * JSON API, so a page and the API never disagree.
 */
export class ViewApp {
  private readonly comparisons: Comparisons;

  constructor(
    private readonly data: ViewData,
    /** How the pages name the store: its folder, or the bucket. */
    private readonly storeName: string,
  ) {
    this.comparisons = new Comparisons(data);
  }

  async respond(method: string, target: string): Promise<ViewResponse> {
    const parsed = parseRoute(method, target);
    if (!parsed.ok) return errorResponse(target, parsed.error.status, parsed.error.message);
    const answer = await this.answer(parsed.value);
    return answer.ok ? answer.value : errorResponse(target, answer.error.status, answer.error.message);
  }

  private async answer(route: Route): Promise<Found<ViewResponse>> {
    switch (route.kind) {
      case 'suites-page': {
        const { cards, unreadable: left } = await this.data.suites();
        return html(suitesPage(cards, left, this.storeName));
      }
      case 'suites-api': {
        const { cards, unreadable: left } = await this.data.suites();
        return json({ suites: cards, ...(left.length === 0 ? {} : { unreadable: left }) });
      }
      case 'suite-page': {
        const history = await this.data.history(route.suite);
        if (!history.ok) return history;
        const navigation = viewNavigation([
          ['Suites', viewPaths.suites()],
          ['history.json', viewPaths.historyApi(route.suite)],
        ]);
        const links = { report: viewPaths.run, compare: (a: string, b: string) => viewPaths.compare(a, b) };
        return html(renderHistoryHtml(history.value, { links, chartedRuns: route.charted, navigation }), 200, HISTORY_PAGE_POLICY);
      }
      case 'history-api': {
        const bytes = await this.data.historyBytes(route.suite);
        return bytes.ok ? found({ status: 200, contentType: JSON_TYPE, body: bytes.value, policy: DATA_POLICY }) : bytes;
      }
      case 'run-page': {
        const run = await this.data.run(route.runId);
        if (!run.ok) return run;
        const page = await this.data.reportHtml(run.value);
        // The stored page is the store's, not the view's: it runs under a policy of its own (storedPagePolicy).
        return page.ok ? html(runPage(run.value, page.value), 200, storedPagePolicy(page.value)) : page;
      }
      case 'report-api': {
        const run = await this.data.run(route.runId);
        return run.ok ? found({ status: 200, contentType: JSON_TYPE, body: run.value.reportBytes, policy: DATA_POLICY }) : run;
      }
      case 'cases-page':
      case 'cases-api':
        return this.cases(route);
      case 'compare-api': {
        const runs = await this.comparisons.runs(route.a, route.b);
        if (!runs.ok) return runs;
        const comparison = await this.comparisons.comparison(runs.value[0], runs.value[1]);
        // The text `assay compare --json` prints, byte for byte.
        return comparison.ok
          ? found({ status: 200, contentType: JSON_TYPE, body: `${JSON.stringify(comparison.value, null, 2)}\n`, policy: DATA_POLICY })
          : comparison;
      }
      case 'query-changes-api': {
        const runs = await this.comparisons.runs(route.a, route.b);
        if (!runs.ok) return runs;
        const changed = await this.comparisons.queryChanges(runs.value[0], runs.value[1], route.engine, route.metric);
        if (!changed.ok) return changed;
        const page = changed.value.changes.slice(route.offset, route.offset + route.limit);
        const next = route.offset + page.length < changed.value.changes.length ? route.offset + page.length : null;
        return json({
          a: route.a,
          b: route.b,
          engine: route.engine,
          metric: route.metric,
          total: changed.value.changes.length,
          losses: changed.value.losses,
          unchanged: changed.value.unchanged,
          offset: route.offset,
          next_offset: next,
          changes: page,
        });
      }
      case 'compare-page': {
        const page = await this.comparisons.page(route);
        return page.ok ? html(page.value.html, page.value.status) : page;
      }
    }
  }

  private async cases(route: Extract<Route, { kind: 'cases-page' | 'cases-api' }>): Promise<Found<ViewResponse>> {
    const run = await this.data.run(route.runId);
    if (!run.ok) return run;
    const file = await this.data.casesFile(run.value);
    if (!file.ok) return file;
    const page = await readCasePage(file.value.path, route.offset, route.limit);
    if (!page.ok) return unreadable(`cases.jsonl of run ${route.runId}, line ${page.error.line}: ${page.error.message}`);
    return route.kind === 'cases-api' ? json({ run_id: route.runId, ...page.value }) : html(casesPage(run.value, page.value, route.limit));
  }
}

function html(body: string, status = 200, policy = VIEW_PAGE_POLICY): Found<ViewResponse> {
  return found({ status, contentType: HTML, body, policy });
}

function json(value: unknown): Found<ViewResponse> {
  return found({ status: 200, contentType: JSON_TYPE, body: `${JSON.stringify(value, null, 2)}\n`, policy: DATA_POLICY });
}

/**
 * A request that is not answered with what it asked for, in the form it
 * asked for: `{"error": "..."}` for the API (a path under /api/), else the
 * error page. The server answers a refused Host and an unexpected error
 * this way too.
 */
export function errorResponse(target: string, status: number, message: string): ViewResponse {
  return target.startsWith('/api/')
    ? { status, contentType: JSON_TYPE, body: `${JSON.stringify({ error: message })}\n`, policy: DATA_POLICY }
    : { status, contentType: HTML, body: errorPage(status, message), policy: VIEW_PAGE_POLICY };
}
