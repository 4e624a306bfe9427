import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectDataset, type DatasetEvent } from '../../../shared/rows/dataset-events.js';
import { storedCaseText } from '../../../shared/schema/stored-case.js';
import { loadTrecCollection, type TrecCollectionFiles } from '../../../shared/trec-collection/trec-collection.js';
import { buildTrecCase } from '../../../shared/trec-collection/trec-case.js';
import type { CollectionWork } from '../../../shared/trec-collection/trec-collection-work.js';
import { serializedPartitionCases } from '../../../shared/trec-collection/trec-partition-cases.js';
import { spillRunsInTurn } from '../../../shared/trec-collection/trec-run-spilling-reader.js';
import { readRunTopics, type RunTopicsReader } from '../../../shared/trec-collection/trec-run-topics.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';
import { inFixedOrder } from './collected-in-order.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'trec-eval');

let folder: TempFolder;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  await folder.remove();
});

/** The collection's run files read by other "threads", each finishing after the next one: the events must not depend on when each is done. */
const backwards: RunTopicsReader = (runs) =>
  Promise.all(
    runs.map(async (file, index) => {
      await new Promise((resolve) => setTimeout(resolve, 10 * (runs.length - index)));
      return readRunTopics(file);
    }),
  );

/** Work that may only read the files whole: spilling them would be the wrong path. */
const wholeOnly: CollectionWork = {
  readRunTopics: backwards,
  spillRuns: () => Promise.reject(new Error('spilled a collection that fits in memory')),
  partitionCases: () => Promise.reject(new Error('grouped spill partitions of a collection that fits in memory')),
};

/** The load without a spill folder (all in memory, the reference), and the bounded load, here and with the files read elsewhere. */
async function loadThreeWays(files: TrecCollectionFiles) {
  const reference = await collectDataset(loadTrecCollection(files));
  const spillFolder = join(folder.path, 'spill');
  const bounded = await collectDataset(loadTrecCollection({ ...files, spillFolder }));
  const elsewhere = await collectDataset(loadTrecCollection({ ...files, spillFolder, work: wholeOnly }));
  return { reference, bounded, elsewhere, spillFolder };
}

/** The serialized cases (the text ingest stores or sends) of a load, by request id. */
async function serializedTexts(events: AsyncIterable<DatasetEvent>): Promise<Record<string, { form: string; text: string }>> {
  const texts: Record<string, { form: string; text: string }> = {};
  for await (const event of events) {
    if (event.kind !== 'case' || event.serialized === undefined) continue;
    const { requestId, form, text } = event.serialized;
    texts[requestId] = { form, text: typeof text === 'string' ? text : Buffer.from(text).toString('utf8') };
  }
  return texts;
}

describe('loadTrecCollection of run files that fit in memory, with a spill folder', () => {
  it("gives trec_eval's test collection the events of the in-memory load, in the same order, and writes no spill file", async () => {
    // Prepare: two runs of one tag (the second is named by its file)
    const files = { qrels: join(FIXTURES, 'qrels.rel_level'), runs: [join(FIXTURES, 'results.test'), join(FIXTURES, 'results.trunc')] };

    // Act
    const { reference, bounded, elsewhere, spillFolder } = await loadThreeWays(files);

    // Assess
    expect(bounded).toEqual(reference);
    expect(elsewhere).toEqual(reference);
    expect(reference.cases.map((evalCase) => Object.keys(evalCase.engines))).toEqual([
      ['STANDARD', 'results.trunc:STANDARD'],
      ['STANDARD'],
      ['STANDARD', 'results.trunc:STANDARD'],
    ]);
    await expect(readdir(spillFolder)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reports bad lines and repeated documents in line order, names runs file by file, and takes query texts, as the in-memory load does', async () => {
    // Prepare: a file of two tags in interleaved topics, a repeated document after a blank line, a bad score, a short line, a tag another file uses
    const qrels = await folder.write('qrels.txt', 'q1 0 d1 1\nq2 0 d9 2\nq3 0 d4 3\n');
    const first = await folder.write(
      'first.txt',
      'q1 Q0 d1 1 2 r\nq2 Q0 d9 1 3 s\nq1 Q0 d2 2 1 r\n\nq1 Q0 d1 3 0.5 r\nq2 Q0 d8 2 high s\nq3 Q0 d4\nq2 Q0 d7 3 1.50 s\n',
    );
    const second = await folder.write('second.txt', 'q3\tQ0\td4 1 +2e0 r extra\nq1 Q0 d2  1 5 r\nq1 Q0 d2 2 4 r\n');
    const queries = await folder.write('queries.tsv', 'q1\tfirst query\nq3\tthird query\n');

    // Act
    const { reference, bounded, elsewhere } = await loadThreeWays({ qrels, runs: [first, second], queries });

    // Assess
    expect(bounded).toEqual(reference);
    expect(elsewhere).toEqual(reference);
    expect(reference.errors.map((error) => [error.file.split('/').at(-1), error.line, error.field])).toEqual([
      ['first.txt', 5, 'docno'],
      ['first.txt', 6, 'score'],
      ['first.txt', 7, undefined],
      ['second.txt', 3, 'docno'],
    ]);
    expect(reference.cases.map((evalCase) => [evalCase.request, Object.keys(evalCase.engines)])).toEqual([
      ['first query', ['r', 'second.txt:r']],
      ['q2', ['s']],
      ['third query', ['second.txt:r']],
    ]);
  });

  it('groups through the spill, as before, runs of two files that would get one name', async () => {
    // Prepare: three files called run.txt with tag r: the second and the third are both "run.txt:r", one engine of both files' lines
    const runs: string[] = [];
    for (const [name, text] of [
      ['a', 'q1 Q0 d1 1 3 r\n'],
      ['b', 'q1 Q0 d2 1 2 r\n'],
      ['c', 'q1 Q0 d3 1 1 r\nq1 Q0 d2 2 0.5 r\n'],
    ] as const) {
      await mkdir(join(folder.path, name));
      runs.push(await folder.write(join(name, 'run.txt'), text));
    }
    const qrels = await folder.write('qrels.txt', 'q1 0 d2 1\n');

    const files = { qrels, runs: [...runs, runs[0] as string] };
    const work: CollectionWork = { readRunTopics: backwards, spillRuns: spillRunsInTurn, partitionCases: serializedPartitionCases };

    // Act
    const reference = await collectDataset(loadTrecCollection(files));
    const bounded = await collectDataset(loadTrecCollection({ ...files, spillFolder: join(folder.path, 'here') }));
    const elsewhere = await collectDataset(loadTrecCollection({ ...files, spillFolder: join(folder.path, 'elsewhere'), work }));

    // Assess: the spill's events (cases by partition, repeated documents after the bad lines), the same once sorted
    expect(inFixedOrder(bounded)).toEqual(inFixedOrder(reference));
    expect(inFixedOrder(elsewhere)).toEqual(inFixedOrder(reference));
    expect(reference.cases[0]?.engines['run.txt:r']?.retrieved_context.map((chunk) => chunk.doc_uri)).toEqual(['d2', 'd3']);
    expect(reference.errors.map((error) => [error.file.split('/').slice(-2).join('/'), error.line])).toEqual([
      ['c/run.txt', 2],
      ['a/run.txt', 1],
    ]);
  });

  it('writes a long case as the same stored text the spilled load writes, and a short one as the same case', async () => {
    // Prepare: topic 401 holds 3 × 1,100 chunks, past the inline limit; 402 is short; run c lists 401 from the lowest score up, with ties
    const lines = (tag: string, topic: string, count: number) =>
      Array.from(
        { length: count },
        (_, rank) => `${topic} Q0 ${tag}-d${(rank * 7) % count} ${rank + 1} ${(1000 - Math.floor(rank / 2)).toFixed(2)} ${tag}`,
      );
    const qrels = await folder.write('qrels.txt', '401 0 a-d0 2\n401 0 b-d7 1\n402 0 a-d3 3\n');
    const runs = [
      await folder.write('a.run', [...lines('a', '401', 1_100), ...lines('a', '402', 30)].join('\n')),
      await folder.write('b.run', lines('b', '401', 1_100).join('\n')),
      await folder.write('c.run', lines('c', '401', 1_100).reverse().join('\n')),
    ];
    const work: CollectionWork = { readRunTopics: backwards, spillRuns: spillRunsInTurn, partitionCases: serializedPartitionCases };

    // Act
    const whole = await serializedTexts(loadTrecCollection({ qrels, runs, spillFolder: join(folder.path, 'whole'), work }));
    const spilled = await serializedTexts(
      loadTrecCollection({ qrels, runs, spillFolder: join(folder.path, 'spilled'), work, runsInMemoryUpTo: 0 }),
    );

    // Assess
    expect(whole).toEqual(spilled);
    expect(whole['401']?.form).toBe('stored');
    expect(whole['402']?.form).toBe('case');
    // The very text the pipeline writes (storedCaseText) for the case buildTrecCase builds of the same lines, down to the order of the fields.
    const entries = (texts: string[]) =>
      texts
        .map((text) => text.split(' '))
        .filter(([topic]) => topic === '401')
        .map(([, , docno = '', , score = '']) => ({ docno, score: Number(score) }));
    const built = buildTrecCase(
      '401',
      [
        { doc_uri: 'a-d0', grade: 2 },
        { doc_uri: 'b-d7', grade: 1 },
      ],
      [
        ['a', entries(lines('a', '401', 1_100))],
        ['b', entries(lines('b', '401', 1_100))],
        ['c', entries(lines('c', '401', 1_100).reverse())],
      ],
      {},
    );
    expect(storedCaseText(built)).toBe(whole['401']?.text);
  });
});
