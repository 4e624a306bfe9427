/**
 * Store keys of a suite's history, in one place. Everything stays under
 * `reports/`, the one prefix the deployed reducer may write besides `runs/`
 * (whose objects expire): the history outlives the runs' records.
 *
 * - `reports/<suite>/history/<time>_<run>.json`: one run's row, written by
 *   the reducer that reports the run and by no one else;
 * - `reports/<suite>/history.json` and `history.html`: every row, rebuilt
 *   from the rows (write-history.ts);
 * - `reports/@suites/<suite>.json`: the suite's card (its newest row and run
 *   count), so the suites of a store are one short listing. `@` is not a
 *   character of suite names, so no suite's own folder can be there.
 */
export const historyKeys = {
  row: (suite: string, createdAt: string, runId: string) => `reports/${suite}/history/${timeStamp(createdAt)}_${runId}.json`,
  rowsPrefix: (suite: string) => `reports/${suite}/history/`,
  json: (suite: string) => `reports/${suite}/history.json`,
  html: (suite: string) => `reports/${suite}/history.html`,
  card: (suite: string) => `reports/@suites/${suite}.json`,
  cardsPrefix: 'reports/@suites/',
  /** Everything of the suite under reports/: its run folders, their report.json among them. */
  suitePrefix: (suite: string) => `reports/${suite}/`,
  report: (suite: string, runId: string) => `reports/${suite}/${runId}/report.json`,
};

/** `2026-11-26T01:02:03.456Z` → `20261126T010203456Z`: sorts as the time does, and is a plain file name everywhere. */
function timeStamp(createdAt: string): string {
  return new Date(createdAt).toISOString().replace(/[-:.]/g, '');
}
