import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCollectionQrels } from '../../../shared/trec-collection/trec-qrels-reader.js';
import { gradedDocuments, writeJudgmentsQrels } from '../../../shared/report/judgments-qrels.js';
import type { CaseLine } from '../../../shared/schema/report.js';
import { gradesByDocument, readQrels as readScoringQrels, topicJudgmentsOf } from '../../../shared/trec/qrels.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

const retrieved = [
  { doc_uri: 'd1', rank: 1 },
  { doc_uri: 'd2', rank: 2 },
  { doc_uri: 'd3', rank: 3 },
];
const line = (metrics: CaseLine['metrics']): CaseLine => ({ case_id: 'q1', request_id: 'q1', engine: 'bm25', metrics, retrieved });

describe('the graded documents of a case line', () => {
  it.each<[string, CaseLine['metrics'], [string, number][]]>([
    [
      'grades of graded_relevance',
      { 'retrieval/llm_judged/graded_relevance/ratings': [3, 0, 2] },
      [
        ['d1', 3],
        ['d2', 0],
        ['d3', 2],
      ],
    ],
    [
      'yes/no of chunk_relevance as 1/0',
      { 'retrieval/llm_judged/chunk_relevance/ratings': ['yes', 'no', 'yes'] },
      [
        ['d1', 1],
        ['d2', 0],
        ['d3', 1],
      ],
    ],
    [
      'graded_relevance when both ran',
      { 'retrieval/llm_judged/chunk_relevance/ratings': ['yes', 'yes', 'yes'], 'retrieval/llm_judged/graded_relevance/ratings': [1, 2, 0] },
      [
        ['d1', 1],
        ['d2', 2],
        ['d3', 0],
      ],
    ],
    [
      'no failed judgment (null)',
      { 'retrieval/llm_judged/graded_relevance/ratings': [2, null, 1] },
      [
        ['d1', 2],
        ['d3', 1],
      ],
    ],
    ['only the judged top of a deeper list', { 'retrieval/lexical/graded_relevance/ratings': [1] }, [['d1', 1]]],
    ['nothing without a retrieval judge', { 'response/llm_judged/correctness/rating': 'yes' }, []],
  ])('%s', (_, metrics, expected) => {
    expect(gradedDocuments(line(metrics))).toEqual(expected);
  });
});

describe('judgments.qrels with ids TREC fields cannot hold', () => {
  let folder: TempFolder;
  beforeEach(async () => {
    folder = await createTempFolder();
  });
  afterEach(async () => {
    await folder.remove();
  });

  const hostile: CaseLine = {
    case_id: 'c-1',
    request_id: 'what is\nit 1 0 forged 3',
    engine: 'bm25',
    metrics: { 'retrieval/llm_judged/graded_relevance/ratings': [3, 2, 1, 0, 2] },
    retrieved: [
      { doc_uri: 'docs/My File.pdf', rank: 1 },
      { doc_uri: 'a\tb\u00a0c\u3000d', rank: 2 },
      { doc_uri: '50% off\r', rank: 3 },
      { doc_uri: 'https://example.com/a%20b', rank: 4 },
      { doc_uri: 'nul\u0000byte', rank: 5 },
    ],
  };
  const commented: CaseLine = {
    case_id: 'c-2',
    request_id: '#2',
    engine: 'bm25',
    metrics: { 'retrieval/llm_judged/chunk_relevance/ratings': ['yes'] },
    retrieved: [{ doc_uri: 'd1', rank: 1 }],
  };

  async function writtenQrels(): Promise<{ path: string; written: number; text: string }> {
    const casesPath = await folder.write('cases.jsonl', `${[hostile, commented].map((caseLine) => JSON.stringify(caseLine)).join('\n')}\n`);
    const path = join(folder.path, 'judgments.qrels');
    const written = await writeJudgmentsQrels(casesPath, path);
    return { path, written, text: await readFile(path, 'utf8') };
  }

  it('percent-encodes whitespace, control characters and % in such ids, and a leading # of a request id, so every line has four fields', async () => {
    // Act
    const { text, written } = await writtenQrels();

    // Assess
    expect(written).toBe(6);
    expect(text).toBe(
      [
        'what%20is%0Ait%201%200%20forged%203 0 docs/My%20File.pdf 3',
        'what%20is%0Ait%201%200%20forged%203 0 a%09b%C2%A0c%E3%80%80d 2',
        'what%20is%0Ait%201%200%20forged%203 0 50%25%20off%0D 1',
        'what%20is%0Ait%201%200%20forged%203 0 https://example.com/a%20b 0',
        'what%20is%0Ait%201%200%20forged%203 0 nul%00byte 2',
        '%232 0 d1 1',
        '',
      ].join('\n'),
    );
  });

  it("reads back whole with both of assay's qrels readers, each id as written", async () => {
    // Prepare
    const { path } = await writtenQrels();

    // Act
    const [scored, loaded] = await Promise.all([readScoringQrels(path), readCollectionQrels(path)]);

    // Assess
    if (!scored.ok) throw new Error(scored.error.message);
    expect([...scored.value.keys()]).toEqual(['what%20is%0Ait%201%200%20forged%203', '%232']);
    expect(gradesByDocument(scored.value.get('what%20is%0Ait%201%200%20forged%203') ?? topicJudgmentsOf([])).size).toBe(5);
    expect(loaded.errors).toEqual([]);
    expect(loaded.rows).toBe(6);
    expect(loaded.topics.get('%232')).toEqual([{ doc_uri: 'd1', grade: 1 }]);
  });
});
