import type { StoredRun } from '../view-data.js';
import { viewNavigation } from './layout.js';
import { viewPaths } from './view-paths.js';

/**
 * `/runs/<run>`: the run's report.html as the reducer wrote it (its own
 * Content-Security-Policy, style sheet and script), with the view's
 * navigation placed first in its `<main>`: the suite's history, every case
 * page by page, the comparison with the run it was compared with, report.json.
 */
export function runPage(run: StoredRun, reportHtml: string): string {
  const comparedWith = run.report.comparison?.baseline_run_id;
  const navigation = viewNavigation([
    ['Suites', viewPaths.suites()],
    [`History of ${run.suite}`, viewPaths.suite(run.suite)],
    ['Every case', viewPaths.cases(run.runId)],
    ...(comparedWith === undefined ? [] : [[`Compare with ${comparedWith}`, viewPaths.compare(comparedWith, run.runId)] as const]),
    ['report.json', viewPaths.reportApi(run.runId)],
  ]);
  const at = reportHtml.indexOf('<main>');
  return at === -1 ? reportHtml : `${reportHtml.slice(0, at + '<main>'.length)}\n${navigation}${reportHtml.slice(at + '<main>'.length)}`;
}
