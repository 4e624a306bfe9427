import type { ObjectStore } from '../ports/object-store.js';
import type { Report } from '../schema/report.js';
import { historyFileOf, suiteCardOf, type HistoryFile } from './history-file.js';
import { renderHistoryHtml } from './history-html.js';
import { historyKeys } from './history-keys.js';
import { historyRowOf } from './history-row.js';
import { readHistoryRows } from './history-rows.js';

/**
 * Adds a reported run to its suite's history: its row, under a key of its
 * own that no other writer touches, then history.json, history.html and
 * the suite's card rebuilt from the rows (writeHistoryFiles). Writing a
 * run's report again (redrive, resume) rewrites its row with the new values.
 */
export async function recordRunHistory(store: ObjectStore, report: Report): Promise<HistoryFile> {
  await store.put(historyKeys.row(report.suite, report.created_at, report.run_id), JSON.stringify(historyRowOf(report)));
  return writeHistoryFiles(store, report.suite);
}

/**
 * Rewrites history.json, history.html and the suite's card from the rows,
 * then reads the rows again, and writes again until what it wrote is what
 * the rows give. Of reducers of one suite racing, the last to write read
 * the rows after every other's row was in place (each writes its row before
 * it reads any), so the files end with every run, on any store that shows
 * finished writes to a later read and listing (S3, a folder), with no
 * conditional write. Comparing the rows read, not only their keys, also
 * catches a run whose report was rewritten meanwhile. A history of N runs
 * costs 2N small reads when nobody races.
 */
export async function writeHistoryFiles(store: ObjectStore, suite: string): Promise<HistoryFile> {
  let read = await readHistoryRows(store, suite);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const history = historyFileOf(suite, read.rows, read.unreadable);
    const json = JSON.stringify(history);
    await store.put(historyKeys.json(suite), json);
    await store.put(historyKeys.html(suite), renderHistoryHtml(history, { links: STORED_PAGE_LINKS }));
    const card = suiteCardOf(history);
    if (card === undefined) await store.delete(historyKeys.card(suite));
    else await store.put(historyKeys.card(suite), JSON.stringify(card));
    read = await readHistoryRows(store, suite);
    if (JSON.stringify(historyFileOf(suite, read.rows, read.unreadable)) === json) return history;
  }
  throw new Error(
    `Expected ${historyKeys.json(suite)} to settle on the rows under ${historyKeys.rowsPrefix(suite)} within ${MAX_ROUNDS} writes; the store's listings do not show its writes`,
  );
}

/** Each round either ends or follows another writer's new row; more rounds than this mean a store whose reads miss finished writes. */
const MAX_ROUNDS = 50;

/** history.html sits in `reports/<suite>/`, beside the run folders: links are relative, so the page works from a download or a bucket alike. */
const STORED_PAGE_LINKS = {
  report: (runId: string) => `${encodeURIComponent(runId)}/report.html`,
};
