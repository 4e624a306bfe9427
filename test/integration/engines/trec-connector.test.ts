import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEngine, farDeadline } from '../../support/engine-configs.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

/** Two runs in one file; topic 101's equal scores are ordered as trec_eval orders them (docno descending). */
const RUN = [
  '101 Q0 iam-best-practices 1 14.0 bm25',
  '101 Q0 cli-config 2 11.5 bm25',
  '101 Q0 iam-rotate-keys 3 11.5 bm25',
  '102 Q0 ir-eval-basics 1 9.0 bm25',
  '101 Q0 iam-rotate-keys 1 0.92 dense',
  '101 Q0 sts-temporary-creds 2 0.84 dense',
].join('\n');

let folder: TempFolder;
let runPath: string;

beforeAll(async () => {
  folder = await createTempFolder();
  runPath = await folder.write('runs.txt', `${RUN}\n`);
});

afterAll(() => folder.remove());

describe('trec connector: a frozen engine from a run file', () => {
  it('answers a topic with the tagged run ranked as trec_eval ranks it', async () => {
    // Prepare
    const engine = buildEngine({ name: 'frozen', trec: { path: runPath, tag: 'bm25' } });

    // Act
    const result = await engine.call({ query: 'rotate keys', request_id: '101' }, farDeadline());

    // Assess
    expect(result.ok && result.value.hits).toEqual([
      { doc_uri: 'iam-best-practices', score: 14 },
      { doc_uri: 'iam-rotate-keys', score: 11.5 },
      { doc_uri: 'cli-config', score: 11.5 },
    ]);
  });

  it('answers a topic the run lacks with no hits', async () => {
    // Prepare
    const engine = buildEngine({ name: 'frozen', trec: { path: runPath, tag: 'dense' } });

    // Act
    const result = await engine.call({ query: 'precision', request_id: '102' }, farDeadline());

    // Assess
    expect(result.ok && result.value.hits).toEqual([]);
  });

  it.each([
    ['no tag for a file of two runs', undefined, 'the file holds the runs bm25, dense (fix: choose one with trec.tag)'],
    ['a tag the file lacks', 'splade', 'no run tagged "splade" (the file holds bm25, dense)'],
  ])('fails permanently on %s', async (_, tag, message) => {
    // Prepare
    const engine = buildEngine({ name: 'frozen', trec: { path: runPath, ...(tag === undefined ? {} : { tag }) } });

    // Act
    const result = await engine.call({ query: 'q', request_id: '101' }, farDeadline());

    // Assess
    expect(result).toEqual({ ok: false, error: { kind: 'permanent', message: `trec run ${runPath}: ${message}` } });
  });

  it('fails permanently on a malformed run file, naming the line', async () => {
    // Prepare
    const path = await folder.write('bad.txt', '101 Q0 a 1 1.0 bm25\n101 Q0 b 2 high bm25\n');
    const engine = buildEngine({ name: 'frozen', trec: { path } });

    // Act
    const result = await engine.call({ query: 'q', request_id: '101' }, farDeadline());

    // Assess
    expect(!result.ok && result.error).toEqual({
      kind: 'permanent',
      message: `trec run ${path}: line 2: expected a number, got "high" (fix: give the retrieval score (higher is better) as a decimal number in the fifth column)`,
    });
  });
});
