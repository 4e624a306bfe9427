import pLimit from 'p-limit';
import { parseReportJson } from '../compare/run-files.js';
import type { ObjectStore } from '../ports/object-store.js';
import type { HistoryFile, UnreadableRow } from './history-file.js';
import { historyKeys } from './history-keys.js';
import { historyRowOf } from './history-row.js';
import { readHistoryRows } from './history-rows.js';
import { writeHistoryFiles } from './write-history.js';

/** Reports read at once. */
const READ_CONCURRENCY = 16;

export interface RebuiltHistory {
  readonly history: HistoryFile;
  /** Rows removed because their run has no report left. */
  readonly removedRows: number;
  /** report.json files that could not be read, left out of the history. */
  readonly unreadableReports: readonly UnreadableRow[];
}

/**
 * `assay history rebuild`: the suite's rows made again from its reports
 * (every `reports/<suite>/<run>/report.json`, written before the history
 * existed or not), the rows of runs without a report removed, and the files
 * rewritten from the rows as the reducer writes them (writeHistoryFiles).
 * Undefined when the suite has neither a report nor a row: nothing is
 * written for a suite name that names nothing.
 */
export async function rebuildHistory(store: ObjectStore, suite: string): Promise<RebuiltHistory | undefined> {
  const reportKeys: string[] = [];
  const prefix = historyKeys.suitePrefix(suite);
  for await (const key of store.list(prefix)) if (/^[^/]+\/report\.json$/.test(key.slice(prefix.length))) reportKeys.push(key);
  const existing = await readHistoryRows(store, suite);
  if (reportKeys.length === 0 && existing.rows.length === 0 && existing.unreadable.length === 0) return undefined;

  const limit = pLimit(READ_CONCURRENCY);
  const unreadableReports: UnreadableRow[] = [];
  const reported = new Set<string>();
  await Promise.all(
    reportKeys.map((key) =>
      limit(async () => {
        const bytes = await store.get(key);
        if (bytes === undefined) return;
        const parsed = parseReportJson(new TextDecoder().decode(bytes));
        if (!parsed.ok) {
          unreadableReports.push({ key, reason: parsed.error.message });
          return;
        }
        const row = historyRowOf(parsed.value);
        const rowKey = historyKeys.row(suite, row.created_at, row.run_id);
        reported.add(rowKey);
        await store.put(rowKey, JSON.stringify(row));
      }),
    ),
  );
  let removedRows = 0;
  for await (const key of store.list(historyKeys.rowsPrefix(suite))) {
    if (reported.has(key) || (await hasReport(store, suite, key))) continue;
    await store.delete(key);
    removedRows++;
  }
  const history = await writeHistoryFiles(store, suite);
  return { history, removedRows, unreadableReports: unreadableReports.sort((left, right) => (left.key < right.key ? -1 : 1)) };
}

/**
 * Whether the run a row key names (`<time>_<run>.json`) has a report now: a
 * reducer that reported a run after the listing above wrote its report
 * before its row, so its row is kept.
 */
async function hasReport(store: ObjectStore, suite: string, rowKey: string): Promise<boolean> {
  const name = rowKey.slice(historyKeys.rowsPrefix(suite).length);
  const runId = /^[^_/]+_([^/]+)\.json$/.exec(name)?.[1];
  return runId !== undefined && (await store.get(historyKeys.report(suite, runId))) !== undefined;
}
