import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectDataset } from '../../../shared/rows/dataset-events.js';
import { loadTrecCollection, type TrecCollectionFiles } from '../../../shared/trec-collection/trec-collection.js';
import { spillRunFile, type RunSpiller } from '../../../shared/trec-collection/trec-run-spilling-reader.js';
import { serializedPartitionCases } from '../../../shared/trec-collection/trec-partition-cases.js';
import { readRunTopicsInTurn } from '../../../shared/trec-collection/trec-run-topics.js';
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

async function loadBothWays(files: TrecCollectionFiles) {
  const inMemory = await collectDataset(loadTrecCollection(files));
  const spillFolder = join(folder.path, 'spill');
  const spilled = await collectDataset(loadTrecCollection({ ...files, spillFolder, runsInMemoryUpTo: 0 }));
  return { inMemory: inFixedOrder(inMemory), spilled: inFixedOrder(spilled), spillFolder };
}

describe('loadTrecCollection with a spill folder, past the bytes it reads in memory', () => {
  it('gives the same events, in the same order, when the run files spill at once, finish in any order, and the partitions are grouped as text', async () => {
    // Prepare: two files share tag r (the later one is named by its file), one file has two tags, repeated documents and a bad line
    const qrels = await folder.write('qrels.txt', 'q1 0 d1 1\nq2 0 d9 2\nq3 0 d4 3\n');
    const first = await folder.write('first.txt', 'q1 Q0 d1 1 2 r\nq1 Q0 d2 2 1 r\nq2 Q0 d9 1 3 s\nq2 Q0 d9 2 1 s\nq3 Q0 d4 1 high r\n');
    const second = await folder.write('second.txt', 'q1 Q0 d2 1 5 r\nq3 Q0 d4 1 2 r\nq3 Q0 d5 2 2 r\n');
    const third = await folder.write('third.txt', 'q2 Q0 d9 1 1 t\nq1 Q0 d1 1 4 t\nq1 Q0 d1 2 4 t\n');
    const files = { qrels, runs: [first, second, third] };
    // Every file spilled at once, the last one first and the first one last.
    const backwards: RunSpiller = (runs, spillFolder, partitions) =>
      Promise.all(
        runs.map(async (file, index) => {
          await new Promise((resolve) => setTimeout(resolve, 10 * (runs.length - index)));
          return spillRunFile(file, index, spillFolder, partitions);
        }),
      );

    // Act
    const inTurn = await collectDataset(loadTrecCollection({ ...files, spillFolder: join(folder.path, 'in-turn'), runsInMemoryUpTo: 0 }));
    const atOnce = await collectDataset(
      loadTrecCollection({
        ...files,
        spillFolder: join(folder.path, 'at-once'),
        runsInMemoryUpTo: 0,
        work: { spillRuns: backwards, readRunTopics: readRunTopicsInTurn, partitionCases: serializedPartitionCases },
      }),
    );

    // Assess: not sorted, so the order counts too
    expect(atOnce).toEqual(inTurn);
    expect(atOnce.cases.flatMap((evalCase) => Object.keys(evalCase.engines)).sort()).toEqual([
      'r',
      's',
      'second.txt:r',
      'second.txt:r',
      't',
      't',
    ]);
    expect(atOnce.errors.map((error) => [error.file.split('/').at(-1), error.line, error.field])).toEqual([
      ['first.txt', 5, 'score'],
      ['third.txt', 3, 'docno'],
      ['first.txt', 4, 'docno'],
    ]);
  });

  it("gives trec_eval's test collection the same cases and counts as the in-memory load, and removes its spill files", async () => {
    // Prepare
    const files = { qrels: join(FIXTURES, 'qrels.rel_level'), runs: [join(FIXTURES, 'results.test'), join(FIXTURES, 'results.trunc')] };

    // Act
    const { inMemory, spilled, spillFolder } = await loadBothWays(files);

    // Assess
    expect(spilled).toEqual(inMemory);
    expect(spilled.cases.map((evalCase) => Object.keys(evalCase.engines))).toEqual([
      ['STANDARD', 'results.trunc:STANDARD'],
      ['STANDARD'],
      ['STANDARD', 'results.trunc:STANDARD'],
    ]);
    await expect(readdir(spillFolder)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reports the same bad lines and repeated documents, with their lines, as the in-memory load', async () => {
    // Prepare: a blank line splits a topic's lines; d1 comes back after it and after another topic
    const qrels = await folder.write('qrels.txt', 'q1 0 d1 1\nq2 0 d9 2\n');
    const run = await folder.write(
      'run.txt',
      'q1 Q0 d1 1 2 r\nq1 Q0 d2 2 1 r\n\nq1 Q0 d1 3 0.5 r\nq2 Q0 d9 1 1 r\nq1 Q0 d1 4 0.1 r\nq2 Q0 d8 2 high r\nq2 Q0 d7\n',
    );
    const other = await folder.write('other.txt', 'q2\tQ0\td9\t1\t+3e0\tr extra\nq2 Q0 d9 2 1 r\n');

    // Act
    const { inMemory, spilled } = await loadBothWays({ qrels, runs: [run, other] });

    // Assess
    expect(spilled).toEqual(inMemory);
    expect(spilled.errors.map((error) => [error.file.split('/').at(-1), error.line, error.field])).toEqual([
      ['other.txt', 2, 'docno'],
      ['run.txt', 4, 'docno'],
      ['run.txt', 6, 'docno'],
      ['run.txt', 7, 'score'],
      ['run.txt', 8, undefined],
    ]);
  });

  it('gives corpus text to the top chunks of each engine only, and none to the judged documents, with a content depth', async () => {
    // Prepare
    const qrels = await folder.write('qrels.txt', 'q 0 d3 1\n');
    const run = await folder.write('run.txt', 'q Q0 d1 1 1 r\nq Q0 d2 2 3 r\nq Q0 d3 3 2 r\n');
    const corpus = await folder.write('corpus.tsv', 'd1\tone\nd2\ttwo\nd3\tthree\n');

    // Act
    const { cases } = await collectDataset(
      loadTrecCollection({ qrels, runs: [run], corpus, spillFolder: join(folder.path, 'spill'), contentDepth: 2 }),
    );

    // Assess: ranked by score, d2 (3) then d3 (2) then d1 (1)
    expect(cases[0]?.engines.r?.retrieved_context).toEqual([
      { doc_uri: 'd2', score: 3, rank: 1, content: 'two' },
      { doc_uri: 'd3', score: 2, rank: 2, content: 'three' },
      { doc_uri: 'd1', score: 1, rank: 3 },
    ]);
    expect(cases[0]?.expected_retrieved_context).toEqual([{ doc_uri: 'd3', grade: 1 }]);
  });
});
