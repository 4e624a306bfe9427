import { describe, expect, it } from 'vitest';
import { historyKeys } from '../../../shared/history/history-keys.js';
import { rebuildHistory } from '../../../shared/history/rebuild-history.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { nights, reportNights } from '../../support/reported-suite.js';

const SUITE = 'nightly';

async function textOf(store: MemoryStore, key: string): Promise<string | undefined> {
  const bytes = await store.get(key);
  return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
}

/** Everything of the suite's history, as the reducers left it. */
async function historyObjects(store: MemoryStore): Promise<Map<string, string | undefined>> {
  const keys = [historyKeys.json(SUITE), historyKeys.html(SUITE), historyKeys.card(SUITE)];
  for await (const key of store.list(historyKeys.rowsPrefix(SUITE))) keys.push(key);
  return new Map(await Promise.all(keys.map(async (key) => [key, await textOf(store, key)] as const)));
}

describe('assay history rebuild', () => {
  it('makes again from the reports, byte for byte, the history the reducers wrote', async () => {
    // Prepare: three reported nights, then every history object removed, as in a store written before the history existed
    const store = new MemoryStore();
    await reportNights(store, SUITE, nights(3, { 2: 'dense' }));
    const written = await historyObjects(store);
    for (const key of written.keys()) await store.delete(key);

    // Act
    const rebuilt = await rebuildHistory(store, SUITE);

    // Assess
    expect(rebuilt?.history.runs).toHaveLength(3);
    expect(rebuilt?.removedRows).toBe(0);
    expect(await historyObjects(store)).toEqual(written);
  });

  it('removes the row of a run whose report is gone, and names a report that cannot be read', async () => {
    // Prepare
    const store = new MemoryStore();
    const [first, second, third] = await reportNights(store, SUITE, nights(3));
    await store.delete(`reports/${SUITE}/${first?.run_id}/report.json`);
    const broken = `reports/${SUITE}/${second?.run_id}/report.json`;
    await store.put(broken, '{"run_id": 7}');

    // Act
    const rebuilt = await rebuildHistory(store, SUITE);

    // Assess: the broken report's row stays as the reducer wrote it; the deleted report's row goes
    expect(rebuilt?.history.runs.map((row) => row.run_id)).toEqual([second?.run_id, third?.run_id]);
    expect(rebuilt?.removedRows).toBe(1);
    expect(rebuilt?.unreadableReports).toEqual([{ key: broken, reason: expect.stringContaining('run_id') }]);
  });

  it('writes nothing for a suite with neither a report nor a row', async () => {
    // Prepare
    const store = new MemoryStore();
    await reportNights(store, SUITE, nights(1));

    // Act
    const rebuilt = await rebuildHistory(store, 'nigthly');

    // Assess
    expect(rebuilt).toBeUndefined();
    const keys: string[] = [];
    for await (const key of store.list('reports/nigthly')) keys.push(key);
    expect(keys).toEqual([]);
    expect(await store.get(historyKeys.card('nigthly'))).toBeUndefined();
  });
});
