import { describe, expect, it } from 'vitest';
import { historyFileSchema, suiteCardSchema, type HistoryFile } from '../../../shared/history/history-file.js';
import { historyKeys } from '../../../shared/history/history-keys.js';
import { historyRowOf, isHistoryStatistic } from '../../../shared/history/history-row.js';
import { recordRunHistory, writeHistoryFiles } from '../../../shared/history/write-history.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { NDCG, nights, reportNights } from '../../support/reported-suite.js';
import { nightlyReport } from './factories.js';

const SUITE = 'nightly';

async function textOf(store: MemoryStore, key: string): Promise<string> {
  const bytes = await store.get(key);
  if (bytes === undefined) throw new Error(`expected ${key} in the store`);
  return new TextDecoder().decode(bytes);
}

/** A store that holds the first write of one key until released, as a slow network holds one reducer's write. */
class HeldHistoryWriteStore extends MemoryStore {
  /** Resolves once the first write of the key is being held. */
  readonly holding: Promise<void>;
  private signalHolding!: () => void;
  private open!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.open = resolve));
  private held = false;

  constructor(private readonly key: string) {
    super();
    this.holding = new Promise((resolve) => (this.signalHolding = resolve));
  }

  release(): void {
    this.open();
  }

  override async put(key: string, body: Uint8Array | string, options?: { ifNoneMatch?: boolean }): Promise<{ written: boolean }> {
    if (key === this.key && !this.held) {
      this.held = true;
      this.signalHolding();
      await this.gate;
    }
    return super.put(key, body, options);
  }
}

async function historyOf(store: MemoryStore): Promise<HistoryFile> {
  return historyFileSchema.parse(JSON.parse(await textOf(store, historyKeys.json(SUITE))));
}

describe('the history the reducer writes', () => {
  it('of three runs, one with an engine degraded, holds each run’s values as its report.json has them, and the regression', async () => {
    // Prepare
    const store = new MemoryStore();

    // Act: three nights through the reducer; on the third, dense got worse
    const reports = await reportNights(store, SUITE, nights(3, { 2: 'dense' }));

    // Assess
    const history = await historyOf(store);
    expect(history.runs.map((row) => row.run_id)).toEqual(reports.map((report) => report.run_id));
    for (const [index, report] of reports.entries()) {
      const row = history.runs[index];
      for (const [engine, statistics] of Object.entries(report.engines)) {
        const expected = Object.fromEntries(Object.entries(statistics).filter(([name]) => isHistoryStatistic(name)));
        expect(row?.engines[engine], `${report.run_id} ${engine}`).toEqual(expected);
        expect(Object.keys(expected)).toContain(`${NDCG}/average/ci_low`);
      }
      expect(row?.cases).toEqual(report.cases);
      expect(row?.regressions).toEqual(report.comparison?.regressions ?? []);
    }
    expect(history.runs[2]?.regressions.map((regression) => [regression.engine, regression.metric])).toEqual([['dense', NDCG]]);
    expect(history.runs[2]?.compared_with).toEqual({ run_id: reports[1]?.run_id, kind: 'previous' });
    const card = suiteCardSchema.parse(JSON.parse(await textOf(store, historyKeys.card(SUITE))));
    expect(card).toEqual({ suite: SUITE, runs: 3, newest: history.runs[2] });
  });

  it('writes a history.html that names and links every run, a point per run and engine, and rings the regression', async () => {
    // Prepare
    const store = new MemoryStore();
    const reports = await reportNights(store, SUITE, nights(3, { 2: 'dense' }));

    // Act
    const html = await textOf(store, historyKeys.html(SUITE));

    // Assess
    for (const report of reports) expect(html).toContain(`href="${report.run_id}/report.html"`);
    const ndcgFigure = html.split('<figure').find((figure) => figure.includes(`<code>${NDCG}/average</code>`)) ?? '';
    // The chart itself, without its legend
    const ndcgChart = ndcgFigure.split('</svg>')[0] ?? '';
    expect(ndcgChart.match(/<a href="[^"]+" tabindex="-1"><title>/g)).toHaveLength(3 * 2);
    expect(ndcgChart.match(/class="regression-ring"/g)).toHaveLength(1);
    expect(ndcgChart).toContain(`dense · ${reports[2]?.run_id}`);
    expect(html).not.toMatch(/\s(src|href)="(https?:)?\/\//);
  });

  it('loses no run when the reducers of twenty runs of one suite write at once, whichever writes history.json last', async () => {
    // Prepare: the first reducer reads the rows while its own is the only one, and its write of history.json lands
    // only after nineteen other reducers have each written their row and history.json
    const store = new HeldHistoryWriteStore(historyKeys.json(SUITE));
    const reports = Array.from({ length: 20 }, (_, index) => nightlyReport(index + 1, { bm25: index / 20 }));
    const held = reports[7];
    if (held === undefined) throw new Error('Expected twenty reports');
    const first = recordRunHistory(store, held);
    await store.holding;

    // Act
    await Promise.all(reports.filter((_, index) => index !== 7).map((report) => recordRunHistory(store, report)));
    store.release();
    await first;

    // Assess
    expect((await historyOf(store)).runs.map((row) => row.run_id)).toEqual(reports.map((report) => report.run_id));
    expect(suiteCardSchema.parse(JSON.parse(await textOf(store, historyKeys.card(SUITE)))).runs).toBe(20);
  });

  it('replaces a run’s values when its report is written again, as a redrive does', async () => {
    // Prepare
    const store = new MemoryStore();
    await recordRunHistory(store, nightlyReport(1, { bm25: 0.4 }));
    await recordRunHistory(store, nightlyReport(2, { bm25: 0.5 }));

    // Act
    await recordRunHistory(store, nightlyReport(1, { bm25: 0.45 }));

    // Assess
    const history = await historyOf(store);
    expect(history.runs.map((row) => row.engines.bm25?.[`${NDCG}/average`])).toEqual([0.45, 0.5]);
  });

  it('leaves out a row that cannot be read, and names it in history.json and history.html', async () => {
    // Prepare
    const store = new MemoryStore();
    await recordRunHistory(store, nightlyReport(1, { bm25: 0.4 }));
    const broken = `${historyKeys.rowsPrefix(SUITE)}20260102T020000000Z_r-0000000000000002.json`;
    await store.put(broken, '{"run_id": "r-0000000000000002"');

    // Act
    const history = await writeHistoryFiles(store, SUITE);

    // Assess
    expect(history.runs).toHaveLength(1);
    expect(history.unreadable_rows).toEqual([{ key: broken, reason: expect.stringMatching(/^not valid JSON/) }]);
    expect(await textOf(store, historyKeys.html(SUITE))).toContain(broken);
  });

  it('of a thousand nights stays bounded: history.html charts the newest 100 runs and lists all in its table', async () => {
    // Prepare: a thousand rows of two engines with intervals, written as their reducers did
    const store = new MemoryStore();
    for (let night = 1; night <= 1000; night++) {
      const statistics = (value: number) => ({
        [`${NDCG}/average`]: value,
        [`${NDCG}/average/ci_low`]: value - 0.05,
        [`${NDCG}/average/ci_high`]: value + 0.05,
      });
      const report = nightlyReport(
        night,
        {},
        { engines: { bm25: statistics(0.5 + (night % 7) / 100), dense: statistics(0.6 - (night % 5) / 100) } },
      );
      await store.put(historyKeys.row(SUITE, report.created_at, report.run_id), JSON.stringify(historyRowOf(report)));
    }

    // Act
    const history = await writeHistoryFiles(store, SUITE);

    // Assess
    const json = await textOf(store, historyKeys.json(SUITE));
    const html = await textOf(store, historyKeys.html(SUITE));
    expect(history.runs).toHaveLength(1000);
    expect(html.match(/<a href="[^"]+" tabindex="-1"><title>/g)).toHaveLength(100 * 2);
    expect(html.match(/<tr><td><time/g)).toHaveLength(1000);
    expect(json.length).toBeLessThan(1_000_000);
    expect(html.length).toBeLessThan(1_000_000);
  });
});
