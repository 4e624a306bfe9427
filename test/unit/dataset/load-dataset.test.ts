import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatasetError } from '../../../shared/rows/dataset-error.js';
import type { DatasetEvent } from '../../../shared/rows/dataset-events.js';
import { loadDataset } from '../../../shared/dataset/load-dataset.js';
import { loadTrecCollection } from '../../../shared/trec-collection/trec-collection.js';
import { jsonLines, loadAll } from './factories.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

async function drain(events: AsyncIterable<DatasetEvent>): Promise<DatasetEvent[]> {
  const all: DatasetEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('loadDataset', () => {
  let folder: TempFolder;
  beforeEach(async () => {
    folder = await createTempFolder();
  });
  afterEach(async () => {
    await folder.remove();
  });

  it('yields errors as rows are read, then the cases, then the counts', async () => {
    // Prepare
    const file = await folder.write('rows.jsonl', '{"request": "a"}\n{"request": 1}\n{"request": "b"}\n');

    // Act
    const events = await drain(loadDataset(file));

    // Assess
    expect(events.map((event) => event.kind)).toEqual(['error', 'case', 'case', 'end']);
    expect(events.at(-1)).toEqual({
      kind: 'end',
      counts: { rows: 3, cases: 2, engines: {}, labelled_cases: 0, expected_response_cases: 0, human_verdict_cases: 0, errors: 1 },
    });
  });

  it('reads the format given instead of the one the file name implies', async () => {
    // Prepare
    const file = await folder.write('rows.txt', jsonLines([{ request: 'a' }]));

    // Act
    const { cases, errors } = await loadAll(file, { format: 'jsonl' });

    // Assess
    expect(errors).toEqual([]);
    expect(cases).toHaveLength(1);
  });

  it.each([
    ['an unknown extension', 'rows.txt', '{"request": "a"}', /cannot tell the dataset format/],
    ['an empty JSONL file', 'rows.jsonl', '', /the file holds no rows/],
    ['an empty CSV file', 'rows.csv', '', /the file holds no rows/],
  ])('reports %s as an error for the whole file', async (_described, name, text, message) => {
    // Prepare
    const file = await folder.write(name, text);

    // Act
    const { errors } = await loadAll(file);

    // Assess
    expect(errors).toEqual([expect.objectContaining({ file, line: 0, message: expect.stringMatching(message) })]);
  });

  it.each(['missing.jsonl', 'missing.json', 'missing.csv'])('reports a missing file (%s) as an error, not a crash', async (name) => {
    // Act
    const { errors } = await loadAll(`${folder.path}/${name}`);

    // Assess
    expect(errors).toEqual([expect.objectContaining({ line: 0, message: expect.stringMatching(/^cannot read the file: ENOENT/) })]);
  });

  it('throws a DatasetError carrying the first InputError in strict mode', async () => {
    // Prepare
    const file = await folder.write('rows.jsonl', '{"request": "a"}\n{"question": 5}\n{"request": "c"}\n');

    // Act
    const loading = drain(loadDataset(file, { strict: true }));

    // Assess
    await expect(loading).rejects.toThrow(DatasetError);
    await expect(loading).rejects.toMatchObject({ inputError: { file, line: 2, field: 'question' } });
  });

  it('throws in strict mode for TREC input too', async () => {
    // Prepare
    const qrels = await folder.write('qrels.txt', 'q1 0 d1\n');

    // Act
    const loading = drain(loadTrecCollection({ qrels, runs: [], strict: true }));

    // Assess
    await expect(loading).rejects.toMatchObject({ name: 'DatasetError', inputError: { line: 1 } });
  });
});
