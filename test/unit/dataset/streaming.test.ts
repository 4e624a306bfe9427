import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonLines } from '../../../shared/readers/jsonl-reader.js';
import { loadDataset } from '../../../shared/dataset/load-dataset.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

const ROWS = 200_000;
const REQUESTS = 1_000;
/** Grouping keeps every case in memory and costs far more per row than reading, so it gets a smaller file. */
const GROUPED_ROWS = 40_000;

/** `rows` / 1000 engines × 1000 requests, one short context each: ~200 bytes a row. */
async function writeLargeDataset(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  const context = 'a retrieved passage that is long enough to weigh something in the heap '.repeat(2);
  for (let index = 0; index < rows; index += 1) {
    const row = {
      request_id: `q${index % REQUESTS}`,
      request: `question ${index % REQUESTS}`,
      engine: `engine-${Math.floor(index / REQUESTS)}`,
      contexts: [context],
    };
    if (!out.write(`${JSON.stringify(row)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

describe('streaming a large dataset', () => {
  let folder: TempFolder;
  let file: string;
  let smallerFile: string;
  beforeAll(async () => {
    folder = await createTempFolder();
    file = `${folder.path}/large.jsonl`;
    smallerFile = `${folder.path}/smaller.jsonl`;
    await Promise.all([writeLargeDataset(file, ROWS), writeLargeDataset(smallerFile, GROUPED_ROWS)]);
  });
  afterAll(async () => {
    await folder.remove();
  });

  it('reads 200k rows while the heap grows by a small fraction of the file size', async () => {
    // Prepare
    const { size } = await stat(file);
    const baseline = process.memoryUsage().heapUsed;
    let rows = 0;
    let largestGrowth = 0;

    // Act
    for await (const event of readJsonLines(file)) {
      if (event.kind === 'row') rows += 1;
      if (rows % 10_000 === 0) largestGrowth = Math.max(largestGrowth, process.memoryUsage().heapUsed - baseline);
    }

    // Assess: garbage not yet collected is included, so the bound is loose, but a reader that kept the file would break it.
    expect(rows).toBe(ROWS);
    expect(largestGrowth).toBeLessThan(size / 2);
  });

  it('groups 40k rows of 40 engines into their 1000 cases', async () => {
    // Act
    let cases = 0;
    let errors = 0;
    let rows = 0;
    for await (const event of loadDataset(smallerFile)) {
      if (event.kind === 'case') cases += 1;
      if (event.kind === 'error') errors += 1;
      if (event.kind === 'end') rows = event.counts.rows;
    }

    // Assess
    expect({ rows, cases, errors }).toEqual({ rows: GROUPED_ROWS, cases: REQUESTS, errors: 0 });
  });
});
