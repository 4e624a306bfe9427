import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradesByDocument, qrelsFromParts, qrelsToParts, readQrels, type TopicJudgments } from '../../../shared/trec/qrels.js';
import { qrels } from './factories.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

describe('readQrels', () => {
  let folder: TempFolder;
  beforeAll(async () => {
    folder = await createTempFolder();
  });
  afterAll(async () => {
    await folder.remove();
  });

  it('reads grades by topic, counting non-negative grades, through a BOM, CRLF, comments and blank lines', async () => {
    // Prepare
    const file = await folder.write(
      'qrels.txt',
      '\uFEFF301 0 d1 1\r\n# a comment\r\n\r\n301 0 d2 0\r\n302\t0\td9\t2\r\n301 0 d3 -1\r\n301 0 d4 2',
    );

    // Act
    const result = await readQrels(file);

    // Assess
    expect(result.ok).toBe(true);
    const qrels = result.ok ? result.value : new Map();
    expect([...qrels.keys()]).toEqual(['301', '302']);
    const topic301 = qrels.get('301') as TopicJudgments;
    const topic302 = qrels.get('302') as TopicJudgments;
    expect(gradesByDocument(topic301)).toEqual(
      new Map([
        ['d1', 1],
        ['d2', 0],
        ['d3', -1],
        ['d4', 2],
      ]),
    );
    expect(topic301.gradeCounts).toEqual([1, 1, 1]);
    expect(gradesByDocument(topic302)).toEqual(new Map([['d9', 2]]));
    expect(topic302.gradeCounts).toEqual([0, 0, 1]);
  });

  it.each([
    ['three fields', '301 0 d1 1\n301 0 d2\n', 2, 'expected 4 fields "qid iter docno grade", found 3'],
    [
      'one field before a CRLF, after trailing whitespace',
      '301 0 d1 1 \t\r\n302\r\n',
      2,
      'expected 4 fields "qid iter docno grade", found 1',
    ],
    ['five fields', '301 0 d1 1 extra\n', 1, 'expected 4 fields "qid iter docno grade", found more'],
    ['a fractional grade', '301 0 d1 1.5\n', 1, 'expected an integer relevance grade, got "1.5"'],
    ['a word as grade', '301 0 d1 yes\n', 1, 'expected an integer relevance grade, got "yes"'],
    ['a docno judged twice', '301 0 d1 1\n302 0 d1 1\n301 0 d1 0\n', 3, 'topic 301 judges document d1 twice'],
    // A grade's counts grow to the grade: 999999999 took 2.6 GB and crashed the process.
    ['a grade of nine digits', '301 0 d1 1\n301 0 d2 999999999\n', 2, 'expected a relevance grade of at most 10000, got "999999999"'],
    ['a grade one above the limit', '301 0 d1 10001\n', 1, 'expected a relevance grade of at most 10000, got "10001"'],
    [
      'a grade of twenty digits',
      '301 0 d1 1 \n301 0 d2 12345678901234567890 \n',
      2,
      'expected a relevance grade of at most 10000, got "12345678901234567890"',
    ],
  ])('stops at %s with an error naming the line', async (_described, content, line, message) => {
    // Prepare
    const file = await folder.write('bad-qrels.txt', content);

    // Act
    const result = await readQrels(file);

    // Assess
    expect(result).toMatchObject({ ok: false, error: { file, line, message } });
  });

  it('says how to fix a grade above the limit: a score, a rank or an id in the grade field', async () => {
    // Prepare: a score written where the grade goes
    const file = await folder.write('score-as-grade.txt', '301 0 d1 1\n301 0 d2 87311\n');

    // Act
    const result = await readQrels(file);

    // Assess
    expect(result).toEqual({
      ok: false,
      error: {
        file,
        line: 2,
        field: 'grade',
        message: 'expected a relevance grade of at most 10000, got "87311"',
        fix: 'give relevance grades as small integers, at most 10000 (0 = not relevant, 1 or more = relevant); a larger number is most likely a score, a rank or an id in the grade field',
      },
    });
  });

  it('reads a grade of the limit, and a negative grade of any size as judged but to be ignored', async () => {
    // Prepare
    const file = await folder.write('edge-grades.txt', '301 0 d1 10000\n301 0 d2 -999999999\n301 0 d3 -12345678901234567890\n');

    // Act
    const result = await readQrels(file);

    // Assess
    const topic = result.ok ? result.value.get('301') : undefined;
    expect(topic === undefined ? undefined : gradesByDocument(topic)).toEqual(
      new Map([
        ['d1', 10000],
        ['d2', -999999999],
        ['d3', Number('-12345678901234567890')],
      ]),
    );
    expect(topic?.gradeCounts).toHaveLength(10001);
    expect(topic?.gradeCounts[10000]).toBe(1);
  });

  it('tells a new topic from the last one when its line comes in the next read at the same place in the buffer', async () => {
    // Prepare: a last line without a newline is read into the buffer where the first line was
    const file = await folder.write('unfinished-qrels.txt', '301 0 d1 1\n302 0 d1 2');

    // Act
    const result = await readQrels(file);

    // Assess
    expect(result.ok && [...result.value].map(([topicId, judgments]) => [topicId, judgments.gradeCounts])).toEqual([
      ['301', [0, 1]],
      ['302', [0, 0, 1]],
    ]);
  });
});

describe('qrelsToParts and qrelsFromParts', () => {
  it('carry qrels through a structured clone, as to a worker thread, with every lookup intact', () => {
    // Prepare: enough documents that the table has grown past its first size
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`doc-${index}`, index % 4]));
    const original = qrels([
      ['301', many],
      ['7', { 'caf\u00e9': 2, dropped: -1 }],
    ]);

    // Act
    const copy = qrelsFromParts(structuredClone(qrelsToParts(original)));

    // Assess
    expect([...copy.keys()]).toEqual(['301', '7']);
    for (const [topicId, judgments] of original) {
      const copied = copy.get(topicId) as TopicJudgments;
      expect(gradesByDocument(copied)).toEqual(gradesByDocument(judgments));
      expect(copied.gradeCounts).toEqual(judgments.gradeCounts);
    }
    const table = (copy.get('301') as TopicJudgments).documents;
    expect([table.findText('doc-39'), table.findText('doc-40'), table.addText('doc-40'), table.findText('doc-40')]).toEqual([
      39, -1, 40, 40,
    ]);
  });
});
