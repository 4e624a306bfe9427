import { truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultThreadsFor, THREADED_INPUT_BYTES } from '../../../cli/run/default-threads.js';
import { MAX_THREADS } from '../../../shared/schema/work-limits.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

let folder: TempFolder;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  await folder.remove();
});

/** A file of `bytes` bytes (sparse: only its size is read). */
async function fileOf(name: string, bytes: number): Promise<string> {
  const path = await folder.write(name, '');
  await truncate(path, bytes);
  return path;
}

describe('the worker threads a run takes without --threads', () => {
  it('keeps a dataset below THREADED_INPUT_BYTES in one thread, and gives one of that size or more a thread a core past two cores', async () => {
    // Prepare
    const small = await fileOf('small.jsonl', THREADED_INPUT_BYTES - 1);
    const large = await fileOf('large.jsonl', THREADED_INPUT_BYTES);

    // Act
    const onFour = [await defaultThreadsFor({ datasetPath: small }, 4), await defaultThreadsFor({ datasetPath: large }, 4)];
    const onMany = await defaultThreadsFor({ datasetPath: large }, 200);

    // Assess
    expect(onFour).toEqual([1, 4]);
    expect(onMany).toBe(MAX_THREADS);
  });

  it('keeps a dataset of any size in one thread on two cores, where the threads cost more than they save', async () => {
    // Prepare
    const large = await fileOf('large.jsonl', 100 * THREADED_INPUT_BYTES);

    // Act
    const threads = [await defaultThreadsFor({ datasetPath: large }, 2), await defaultThreadsFor({ datasetPath: large }, 1)];

    // Assess
    expect(threads).toEqual([1, 1]);
  });

  it('weighs a TREC collection by its qrels and run files together, and threads it on two cores', async () => {
    // Prepare: three files each under the bound, together over it; queries and corpus do not count
    const third = Math.ceil(THREADED_INPUT_BYTES / 3);
    const qrels = await fileOf('a.qrels', third);
    const runs = [await fileOf('a.run', third), await fileOf('b.run', third)];
    const corpus = await fileOf('corpus.jsonl', 10 * THREADED_INPUT_BYTES);

    // Act
    const whole = await defaultThreadsFor({ collection: { qrels, runs } }, 2);
    const oneRunLess = await defaultThreadsFor({ collection: { qrels, runs: runs.slice(0, 1), corpus } }, 2);

    // Assess
    expect(whole).toBe(2);
    expect(oneRunLess).toBe(1);
  });

  it('weighs an input it cannot read as nothing, leaving its upload to report it by name', async () => {
    // Act
    const threads = await defaultThreadsFor({ datasetPath: join(folder.path, 'absent.jsonl') }, 4);

    // Assess
    expect(threads).toBe(1);
  });
});
