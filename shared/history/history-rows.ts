import pLimit from 'p-limit';
import type { ObjectStore } from '../ports/object-store.js';
import type { UnreadableRow } from './history-file.js';
import { historyKeys } from './history-keys.js';
import { historyRowSchema, type HistoryRow } from './history-row.js';
import { parseJsonWith } from '../schema/parse-json-with.js';

/** Row objects read at once: a thousand nights read in a few dozen round trips to S3. */
const READ_CONCURRENCY = 32;

/**
 * Every row of the suite's history, in key order (run time), and the row
 * objects that could not be read (not JSON, or not a row: hand-edited, or
 * written by a newer version), which are left out and named, never trusted.
 * A row listed but gone when read (removed by `assay history rebuild`) is
 * simply absent.
 */
export async function readHistoryRows(store: ObjectStore, suite: string): Promise<{ rows: HistoryRow[]; unreadable: UnreadableRow[] }> {
  const keys: string[] = [];
  for await (const key of store.list(historyKeys.rowsPrefix(suite))) keys.push(key);
  const limit = pLimit(READ_CONCURRENCY);
  const read = await Promise.all(keys.map((key) => limit(async () => ({ key, bytes: await store.get(key) }))));
  const rows: HistoryRow[] = [];
  const unreadable: UnreadableRow[] = [];
  for (const { key, bytes } of read) {
    if (bytes === undefined) continue;
    const parsed = parseJsonWith(historyRowSchema, bytes, 'a history row');
    if (parsed.ok) rows.push(parsed.value);
    else unreadable.push({ key, reason: parsed.error });
  }
  return { rows, unreadable };
}
