import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectDataset } from '../../../shared/rows/dataset-events.js';
import { loadTrecCollection, type TrecCollectionFiles } from '../../../shared/trec-collection/trec-collection.js';
import { rankLikeTrecEval } from '../../../shared/trec-collection/trec-ranking.js';
import { compareBytes } from '../../../shared/trec/trec-order.js';
import { readIdTexts } from '../../../shared/trec-collection/trec-text-file.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

describe('rankLikeTrecEval', () => {
  it('orders by score, then equal scores by docno in descending byte order, ignoring the input order', () => {
    // Prepare: d9 > d10 > d1 > D9 in descending strcmp order ('9' > '1', 'd' > 'D').
    const entries = [
      { docno: 'd1', score: 2 },
      { docno: 'D9', score: 2 },
      { docno: 'top', score: 3 },
      { docno: 'd10', score: 2.0 },
      { docno: 'd9', score: 2 },
    ];

    // Act
    const ranked = rankLikeTrecEval(entries);

    // Assess
    expect(ranked.map((chunk) => [chunk.doc_uri, chunk.rank])).toEqual([
      ['top', 1],
      ['d9', 2],
      ['d10', 3],
      ['d1', 4],
      ['D9', 5],
    ]);
  });

  it.each([
    ['a', 'b'],
    ['a', 'ab'],
    ['Z', 'a'],
    ['\uFFFD', '😀'],
  ])('compares %s before %s as strcmp does on UTF-8', (left, right) => {
    // Act / Assess
    expect(compareBytes(left, right)).toBeLessThan(0);
    expect(Math.sign(compareBytes(left, right))).toBe(Buffer.compare(Buffer.from(left), Buffer.from(right)));
  });
});

describe('loadTrecCollection', () => {
  let folder: TempFolder;
  beforeEach(async () => {
    folder = await createTempFolder();
  });
  afterEach(async () => {
    await folder.remove();
  });

  function load(files: TrecCollectionFiles) {
    return collectDataset(loadTrecCollection(files));
  }

  it('makes one case per topic with the qrels as graded expected documents and each run as an engine', async () => {
    // Prepare
    const qrels = await folder.write('qrels.txt', '2 0 dA 1\n10 0 dB 2\n10 0 dC 0\n');
    const run = await folder.write('run.txt', '10 Q0 dC 1 0.5 bm25\n10\tQ0\tdB\t2\t0.9\tbm25 extra junk\n3 Q0 dZ 1 1 bm25\n');

    // Act
    const { cases, errors, counts } = await load({ qrels, runs: [run] });

    // Assess
    expect(errors).toEqual([]);
    expect(cases).toEqual([
      {
        request_id: '10',
        request: '10',
        engines: {
          bm25: {
            retrieved_context: [
              { doc_uri: 'dB', score: 0.9, rank: 1 },
              { doc_uri: 'dC', score: 0.5, rank: 2 },
            ],
            tags: {},
          },
        },
        expected_retrieved_context: [
          { doc_uri: 'dB', grade: 2 },
          { doc_uri: 'dC', grade: 0 },
        ],
        tags: {},
      },
      { request_id: '2', request: '2', engines: {}, expected_retrieved_context: [{ doc_uri: 'dA', grade: 1 }], tags: {} },
      {
        request_id: '3',
        request: '3',
        engines: { bm25: { retrieved_context: [{ doc_uri: 'dZ', score: 1, rank: 1 }], tags: {} } },
        tags: {},
      },
    ]);
    expect(counts).toEqual({
      rows: 6,
      cases: 3,
      engines: { bm25: 2 },
      labelled_cases: 2,
      expected_response_cases: 0,
      human_verdict_cases: 0,
      errors: 0,
    });
  });

  it('fills document text from a corpus and the request from a queries file', async () => {
    // Prepare
    const qrels = await folder.write('qrels.txt', 'q1 0 d1 1\n');
    const run = await folder.write('run.txt', 'q1 Q0 d2 1 3.5 dense\n');
    const corpus = await folder.write(
      'corpus.jsonl',
      '{"_id": "d1", "title": "Title", "text": "Body one"}\n{"_id": "d2", "text": "Body two"}\n{"_id": "d3", "text": "unused"}\n',
    );
    const queries = await folder.write('queries.tsv', 'q1\twhat is one?\n');

    // Act
    const { cases } = await load({ qrels, runs: [run], corpus, queries });

    // Assess
    expect(cases[0]?.request).toBe('what is one?');
    expect(cases[0]?.expected_retrieved_context).toEqual([{ doc_uri: 'd1', content: 'Title\nBody one', grade: 1 }]);
    expect(cases[0]?.engines.dense?.retrieved_context).toEqual([{ doc_uri: 'd2', content: 'Body two', score: 3.5, rank: 1 }]);
  });

  it('keeps only the wanted documents of a corpus, from JSONL or TSV', async () => {
    // Prepare
    const jsonl = await folder.write('corpus.jsonl', '{"docid": 1, "contents": "one"}\n{"doc_id": "2", "content": "two"}\n');
    const tsv = await folder.write('corpus.tsv', '1\tone\twith a tab\n2\ttwo\n');

    // Act
    const [fromJsonl, fromTsv] = await Promise.all([readIdTexts(jsonl, new Set(['2'])), readIdTexts(tsv, new Set(['1']))]);

    // Assess
    expect([...fromJsonl.texts]).toEqual([['2', 'two']]);
    expect([...fromTsv.texts]).toEqual([['1', 'one\twith a tab']]);
  });

  it('tells two run files with the same tag apart by file name', async () => {
    // Prepare
    const first = await folder.write('first.run', 'q Q0 d 1 1 STANDARD\n');
    const second = await folder.write('second.run', 'q Q0 d 1 1 STANDARD\n');

    // Act
    const { cases, errors } = await load({ runs: [first, second] });

    // Assess
    expect(errors).toEqual([]);
    expect(Object.keys(cases[0]?.engines ?? {})).toEqual(['STANDARD', 'second.run:STANDARD']);
  });

  it.each([
    [
      'a docno repeated within a topic of a run',
      {},
      { 'run.txt': 'q1 Q0 d1 1 2 r\nq1 Q0 d1 2 1 r\n' },
      'run.txt',
      2,
      'docno',
      /run r retrieves document d1 twice for topic q1/,
    ],
    [
      'a docno judged twice for a topic',
      { 'qrels.txt': 'q1 0 d1 1\nq1 0 d1 0\n' },
      {},
      'qrels.txt',
      2,
      'docno',
      /topic q1 judges document d1 twice \(first on line 1\)/,
    ],
    [
      'a qrels line with 3 fields',
      { 'qrels.txt': 'q1 d1 1\n' },
      {},
      'qrels.txt',
      1,
      undefined,
      /expected 4 fields \(qid iter docno grade\), got 3/,
    ],
    ['a qrels grade that is not an integer', { 'qrels.txt': 'q1 0 d1 high\n' }, {}, 'qrels.txt', 1, 'grade', /expected an integer grade/],
    [
      'a qrels grade above the limit (a score in the grade field)',
      { 'qrels.txt': 'q1 0 d1 1\nq1 0 d2 999999999\n' },
      {},
      'qrels.txt',
      2,
      'grade',
      /^expected a relevance grade of at most 10000, got "999999999"$/,
    ],
    ['a run line with 5 fields', {}, { 'run.txt': 'q1 Q0 d1 1 2\n' }, 'run.txt', 1, undefined, /expected at least 6 fields/],
    ['a run score that is not a number', {}, { 'run.txt': 'q1 Q0 d1 1 high r\n' }, 'run.txt', 1, 'score', /expected a number, got "high"/],
    [
      'a run score that is infinite',
      {},
      { 'run.txt': 'q1 Q0 d1 1 1e999 r\n' },
      'run.txt',
      1,
      'score',
      /expected a finite number, got "1e999"/,
    ],
  ])('reports %s', async (_described, qrelsFiles: Record<string, string>, runFiles: Record<string, string>, name, line, field, message) => {
    // Prepare
    const [qrels] = await Promise.all(Object.entries(qrelsFiles).map(([file, text]) => folder.write(file, text)));
    const runs = await Promise.all(Object.entries(runFiles).map(([file, text]) => folder.write(file, text)));

    // Act
    const { errors } = await load({ qrels, runs });

    // Assess
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      file: expect.stringMatching(new RegExp(`${name.replace('.', '\\.')}$`)),
      line,
      message: expect.stringMatching(message),
    });
    expect(errors[0]?.field).toBe(field);
  });

  it('reports a missing run file as an error, not a crash', async () => {
    // Act
    const { errors } = await load({ runs: [`${folder.path}/missing.run`] });

    // Assess
    expect(errors).toEqual([expect.objectContaining({ line: 0, message: expect.stringMatching(/^cannot read the file/) })]);
  });
});
