import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectDataset } from '../../../shared/rows/dataset-events.js';
import { loadDataset } from '../../../shared/dataset/load-dataset.js';
import type { EvalCase } from '../../../shared/schema/eval-case.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';
import { jsonLines } from './factories.js';

let folder: TempFolder;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  await folder.remove();
});

const byRequestId = (cases: readonly EvalCase[]) => [...cases].sort((a, b) => (a.request_id < b.request_id ? -1 : 1));

describe('grouping through spill files', () => {
  it('gives the same cases, errors and counts as grouping in memory', async () => {
    // Prepare: rows of many requests, interleaved, with a duplicate engine row and a label conflict
    const rows: object[] = [];
    for (let index = 0; index < 300; index++) {
      rows.push({
        request_id: `q${index}`,
        request: `question ${index}`,
        engine: 'a',
        response: `a${index}`,
        retrieved_context: [`text ${index}`],
      });
    }
    for (let index = 299; index >= 0; index--) {
      rows.push({
        request_id: `q${index}`,
        request: `question ${index}`,
        engine: 'b',
        response: `b${index}`,
        expected_response: `gold ${index}`,
      });
    }
    rows.push({ request_id: 'q7', request: 'question 7', engine: 'a', response: 'again' });
    rows.push({ request_id: 'q8', request: 'question 8', expected_response: 'another gold' });
    const file = await folder.write('rows.jsonl', jsonLines(rows));

    // Act
    const inMemory = await collectDataset(loadDataset(file));
    const spilled = await collectDataset(loadDataset(file, { spillFolder: join(folder.path, 'spill') }));

    // Assess
    expect(byRequestId(spilled.cases)).toEqual(byRequestId(inMemory.cases));
    expect(spilled.counts).toEqual(inMemory.counts);
    expect(spilled.errors.map((error) => `${error.line} ${error.field}`).sort()).toEqual(
      inMemory.errors.map((error) => `${error.line} ${error.field}`).sort(),
    );
    expect(inMemory.errors).toHaveLength(2);
  });

  it('removes its spill folder and gives the same order on every run', async () => {
    const file = await folder.write(
      'rows.jsonl',
      jsonLines([1, 2, 3, 4, 5].map((index) => ({ request: `question ${index}`, response: 'r' }))),
    );
    const spill = join(folder.path, 'spill');
    const first = await collectDataset(loadDataset(file, { spillFolder: spill }));
    const second = await collectDataset(loadDataset(file, { spillFolder: spill }));
    expect(second.cases.map((evalCase) => evalCase.request)).toEqual(first.cases.map((evalCase) => evalCase.request));
    await expect(import('node:fs/promises').then((fs) => fs.stat(spill))).rejects.toThrow(/ENOENT/);
  });
});
