import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtThreadEntry, PipelineThreads, threadedAggregator } from '../../cli/threads/pipeline-threads.js';
import { threadJudge } from '../../cli/threads/thread-judge.js';
import { comesBack, type CaseDelivery } from '../../shared/worker/case-delivery.js';
import { rangeAggregatorOf } from '../../shared/reduce/aggregate-range.js';
import { serializePartial } from '../../shared/report/range-partial.js';
import { runKeys } from '../../shared/run/run-identity.js';
import { LocalFolderStore } from '../../shared/ports/local-folder-store.js';
import { compareText } from '../../shared/report/ordering.js';
import { syntheticRun } from '../support/synthetic-run.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/** The build the tests' global set-up makes (test/support/build-cli.ts): the threads start from it. */
const ENTRY = builtThreadEntry(new URL('../../dist/cli/main.js', import.meta.url).href);

let folder: TempFolder;
let threads: PipelineThreads | undefined;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  await threads?.close();
  await folder.remove();
});

/** Two threads over a store holding a synthetic run of `count` cases. */
async function threadsOverRun(count: number) {
  const storeFolder = join(folder.path, 'store');
  const store = new LocalFolderStore(storeFolder);
  const run = await syntheticRun(count, store);
  threads = PipelineThreads.start(storeFolder, 2, ENTRY);
  if (threads === undefined) throw new Error('expected the built thread entry');
  return { store, run, threads, sorted: [...run.caseIds].sort(compareText) };
}

describe('the pipeline threads of an embedded run', () => {
  it('aggregate a reduce range in pieces, one a thread, into what one pass in this thread gives', async () => {
    // Prepare
    const { store, run, threads: pool, sorted } = await threadsOverRun(300);

    // Act
    const here = await rangeAggregatorOf(store, run.manifest.run_id)(0, sorted, true, join(folder.path, 'here'));
    const there = await threadedAggregator(pool, run.manifest.run_id)(0, sorted, true, join(folder.path, 'there'));

    // Assess
    const text = async (files: readonly string[]) => (await Promise.all(files.map((file) => readFile(file, 'utf8')))).join('');
    expect(there.linesFiles).toHaveLength(2);
    expect(serializePartial(there.partial)).toBe(serializePartial(here.partial));
    expect(await text(there.linesFiles)).toBe(await text(here.linesFiles));
    expect(there.lines).toEqual(here.lines);
  });

  it("fail a task that throws in a thread with the thread's error, and take the next task", async () => {
    // Prepare: case b's result holds case a's record, which the aggregation refuses
    const { store, run, threads: pool, sorted } = await threadsOverRun(4);
    const [first, second] = run.results;
    if (first === undefined || second === undefined) throw new Error('expected two results');
    await store.put(runKeys.result(run.manifest.run_id, second.case_id), JSON.stringify(first));

    // Act
    const failed = pool.run({
      kind: 'aggregate',
      runId: run.manifest.run_id,
      range: 0,
      caseIds: sorted,
      keepLines: false,
      linesPath: join(folder.path, 'failed'),
    });
    await expect(failed).rejects.toThrow(/under its key, but found case/);
    await store.put(runKeys.result(run.manifest.run_id, second.case_id), JSON.stringify(second));
    const next = await pool.run({
      kind: 'aggregate',
      runId: run.manifest.run_id,
      range: 0,
      caseIds: sorted,
      keepLines: false,
      linesPath: join(folder.path, 'next'),
    });

    // Assess
    expect(next.partial.outcomes).toHaveLength(4);
  });

  it('judge a batch in two halves and give back every delivery of both, each to come back when it failed', async () => {
    // Prepare: messages that are no case message, so each fails (and every delivery of each half)
    const store = new LocalFolderStore(join(folder.path, 'store'));
    const judge = threadJudge(store);
    const delivery = (index: number): CaseDelivery => ({
      messageId: `m${index}`,
      body: index === 3 ? '{"kind":"case"}' : 'not json',
      receiveCount: 1,
    });

    // Act
    const batch = await judge([0, 1, 2, 3, 4].map(delivery));
    const single = await judge([delivery(7)]);

    // Assess
    expect(
      batch
        .filter(comesBack)
        .map((delivered) => delivered.messageId)
        .sort(),
    ).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(batch.map((delivered) => delivered.kind)).toEqual(new Array(5).fill('unreadable'));
    expect(single.filter(comesBack).map((delivered) => delivered.messageId)).toEqual(['m7']);
  });

  it('refuse tasks once closed', async () => {
    // Prepare
    const { run, threads: pool, sorted } = await threadsOverRun(2);

    // Act
    await pool.close();

    // Assess
    await expect(
      pool.run({
        kind: 'aggregate',
        runId: run.manifest.run_id,
        range: 0,
        caseIds: sorted,
        keepLines: false,
        linesPath: join(folder.path, 'late'),
      }),
    ).rejects.toThrow(/closed/);
  });
});
