import { z } from 'zod';
import { compareText } from '../report/ordering.js';
import { historyRowSchema, type HistoryRow } from './history-row.js';

/** A row object that could not be read: left out of the history, and named in it. */
export const unreadableRowSchema = z.object({ key: z.string(), reason: z.string() });
export type UnreadableRow = z.infer<typeof unreadableRowSchema>;

/** `reports/<suite>/history.json`: every reported run of the suite, in run time. */
export const historyFileSchema = z.object({
  suite: z.string(),
  /** Oldest first: by the manifest's `created_at`, equal times by run id (the order latest.json follows). */
  runs: z.array(historyRowSchema),
  /** Present when some row object could not be read. */
  unreadable_rows: z.array(unreadableRowSchema).optional(),
});
export type HistoryFile = z.infer<typeof historyFileSchema>;

/** `reports/@suites/<suite>.json`: what the list of suites shows of one suite. */
export const suiteCardSchema = z.object({
  suite: z.string(),
  /** Reported runs in the history. */
  runs: z.number().int().nonnegative(),
  /** The newest run's row. */
  newest: historyRowSchema,
});
export type SuiteCard = z.infer<typeof suiteCardSchema>;

/** The history of the rows, in run time; a run with two rows (written under two keys) counts once, its later key winning. */
export function historyFileOf(suite: string, rows: readonly HistoryRow[], unreadable: readonly UnreadableRow[] = []): HistoryFile {
  const byRun = new Map(rows.map((row) => [row.run_id, row]));
  const runs = [...byRun.values()].sort(byRunTime);
  return { suite, runs, ...(unreadable.length === 0 ? {} : { unreadable_rows: [...unreadable] }) };
}

/** The suite's card, or undefined for a history without runs. */
export function suiteCardOf(history: HistoryFile): SuiteCard | undefined {
  const newest = history.runs.at(-1);
  return newest === undefined ? undefined : { suite: history.suite, runs: history.runs.length, newest };
}

function byRunTime(left: HistoryRow, right: HistoryRow): number {
  return Date.parse(left.created_at) - Date.parse(right.created_at) || compareText(left.run_id, right.run_id);
}
