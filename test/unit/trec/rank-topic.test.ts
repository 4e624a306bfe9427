import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JUDGED_NEGATIVE, NOT_JUDGED } from '../../../shared/metrics/judged-ranking.js';
import { rankTopic } from '../../../shared/trec/rank-topic.js';
import { compareBytes, compareTrec } from '../../../shared/trec/trec-order.js';
import { parseNumberBytes } from '../../../shared/trec/parse-number.js';
import { judgments, topicRun, type RunLine } from './factories.js';

/** The docnos of a topic in the order rankTopic puts them, read back through unique grades. */
function rankedOrder(lines: readonly RunLine[]): string[] {
  const ids = lines.map(([id]) => id);
  const ranked = rankTopic(topicRun(lines), judgments(Object.fromEntries(ids.map((id, index) => [id, index]))));
  return Array.from(ranked.grades, (grade) => ids[grade] as string);
}

const parse = (text: string): number => parseNumberBytes(Buffer.from(text), 0, Buffer.byteLength(text));

describe('rankTopic', () => {
  it('orders any run as a sort by score then docno would, ties, zeros and negative zeros included', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-zA-Z0-9]{1,4}$/), { minLength: 1, maxLength: 60 }),
        fc.array(fc.constantFrom(-1, -0, 0, 0.5, 1, 2, 1e300, -1e-300), { minLength: 60, maxLength: 60 }),
        (ids, scoreChoices) => {
          const lines: RunLine[] = ids.map((id, index) => [id, scoreChoices[index] as number]);
          // The reference: trec_eval's order as a plain comparator sort
          const expected = [...lines].sort(([idA, scoreA], [idB, scoreB]) => scoreB - scoreA || compareBytes(idB, idA)).map(([id]) => id);
          expect(rankedOrder(lines)).toEqual(expected);
        },
      ),
      { seed: 20_261_123, numRuns: 300 },
    );
  });

  it.each([
    ['distinct scores, fewer judged than retrieved', 1_000_000, 0.3],
    ['distinct scores, more judged than retrieved', 1_000_000, 3],
    ['some equal scores, fewer judged than retrieved', 8, 0.3],
    ['some equal scores, more judged than retrieved', 8, 3],
  ])('grades each rank as a full sort would, with %s', (_described, scoreRange, judgedShare) => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-z0-9]{1,4}$/), { minLength: 1, maxLength: 80 }),
        fc.array(fc.integer({ min: -scoreRange, max: scoreRange }), { minLength: 80, maxLength: 80 }),
        fc.array(fc.integer({ min: -1, max: 3 }), { minLength: 240, maxLength: 240 }),
        (ids, scoreChoices, gradeChoices) => {
          // Prepare: a share of the retrieved docnos judged, plus judged docnos the run does not retrieve
          const lines: RunLine[] = ids.map((id, index) => [id, (scoreChoices[index] as number) / 7]);
          const judgedCount = Math.max(1, Math.round(ids.length * judgedShare));
          const grades = Object.fromEntries(
            Array.from({ length: judgedCount }, (_, index) => [
              index < ids.length && index % 2 === 0 ? (ids[index] as string) : `unretrieved${index}`,
              gradeChoices[index] as number,
            ]),
          );
          const reference = [...lines].sort(([idA, scoreA], [idB, scoreB]) => scoreB - scoreA || compareBytes(idB, idA));
          const expected = reference.map(([id]) => {
            const grade = grades[id];
            return grade === undefined ? NOT_JUDGED : grade < 0 ? JUDGED_NEGATIVE : grade;
          });

          // Act
          const ranked = rankTopic(topicRun(lines), judgments(grades));

          // Assess
          expect(Array.from(ranked.grades)).toEqual(expected);
        },
      ),
      { seed: 20_261_124, numRuns: 200 },
    );
  });

  it('ranks judged documents among hundreds of equal scores by docno, as a full sort would', () => {
    // Prepare: 300 documents at score 1 around two others, three judged, so that
    // comparing every equal docno with each judged one is not worth it
    const lines: RunLine[] = [['top', 2], ...Array.from({ length: 300 }, (_, index): RunLine => [`d${index}`, 1]), ['bottom', 0]];
    const grades = { d150: 3, d7: 2, bottom: 1, unretrieved: 1 };
    const reference = [...lines].sort(([idA, scoreA], [idB, scoreB]) => scoreB - scoreA || compareBytes(idB, idA)).map(([id]) => id);

    // Act
    const ranked = rankTopic(topicRun(lines), judgments(grades));

    // Assess: d7 ranks before d150 ("d7" > "d150" in byte order), bottom last
    const expected = reference.map((id) => (grades as Record<string, number>)[id] ?? NOT_JUDGED);
    expect(Array.from(ranked.grades)).toEqual(expected);
    expect([expected.indexOf(2), expected.indexOf(3), expected.indexOf(1)]).toEqual([
      reference.indexOf('d7'),
      reference.indexOf('d150'),
      301,
    ]);
  });

  it('orders by score, highest first, ignoring the order of the lines', () => {
    expect(
      rankedOrder([
        ['low', 0.1],
        ['high', 3],
        ['middle', 1.5],
        ['negative', -2],
      ]),
    ).toEqual(['high', 'middle', 'low', 'negative']);
  });

  it('breaks ties by docno in descending byte order: d9, d10, d1, D9', () => {
    expect(
      rankedOrder([
        ['d1', 5],
        ['D9', 5],
        ['d10', 5],
        ['d9', 5],
      ]),
    ).toEqual(['d9', 'd10', 'd1', 'D9']);
  });

  it('breaks ties only among equal scores', () => {
    expect(
      rankedOrder([
        ['a', 1],
        ['z', 1],
        ['m', 2],
        ['b', 0],
      ]),
    ).toEqual(['m', 'z', 'a', 'b']);
  });

  it.each([
    ['2', '2.0', '2e0', '+2'],
    ['0.5', '.5', '5e-1', '0.50000'],
  ])('treats %s, %s, %s and %s as one score', (...texts) => {
    // Prepare: equal as parsed numbers, so only the docnos decide
    const lines: RunLine[] = texts.map((text, index) => [`doc${index}`, parse(text)]);

    // Act
    const order = rankedOrder(lines);

    // Assess
    expect(order).toEqual(['doc3', 'doc2', 'doc1', 'doc0']);
  });

  it('sorts a character outside the BMP after U+E000..U+FFFF characters, as strcmp on UTF-8 does', () => {
    // UTF-8: U+FFFD is EF BF BD, U+E000 is EE 80 80, U+1F600 is F0 9F 98 80, so the emoji is the
    // greatest and ranks first; UTF-16 code units (0xD83D for the emoji) would put it last.
    expect(
      rankedOrder([
        ['\uFFFD', 1],
        ['\u{1F600}', 1],
        ['\uE000', 1],
        ['z', 1],
      ]),
    ).toEqual(['\u{1F600}', '\uFFFD', '\uE000', 'z']);
  });

  it('ranks a prefix below the longer docno at equal scores (strcmp: "d1" < "d10")', () => {
    expect(
      rankedOrder([
        ['d1', 0],
        ['d10', 0],
        ['d100', 0],
      ]),
    ).toEqual(['d100', 'd10', 'd1']);
  });

  it('keeps a list already in trec_eval order as it is', () => {
    expect(
      rankedOrder([
        ['b', 3],
        ['z', 2],
        ['a', 2],
        ['c', 1],
      ]),
    ).toEqual(['b', 'z', 'a', 'c']);
  });

  it('grades documents from the judgments, marking unjudged and negatively judged ones', () => {
    // Act
    const ranked = rankTopic(
      topicRun([
        ['relevant', 4],
        ['unknown', 3],
        ['excluded', 2],
        ['zero', 1],
      ]),
      judgments({ relevant: 2, excluded: -1, zero: 0, unretrieved: 1 }),
    );

    // Assess
    expect(Array.from(ranked.grades)).toEqual([2, NOT_JUDGED, JUDGED_NEGATIVE, 0]);
    expect(Array.from(ranked.gradeCounts)).toEqual([1, 1, 1]);
  });

  it('grades every document NOT_JUDGED for a topic without judgments', () => {
    const ranked = rankTopic(
      topicRun([
        ['a', 1],
        ['b', 2],
      ]),
      undefined,
    );
    expect(ranked).toEqual({ grades: Int32Array.from([NOT_JUDGED, NOT_JUDGED]), gradeCounts: [] });
  });

  it('ranks an empty topic as an empty list', () => {
    const ranked = rankTopic(topicRun([]), judgments({ a: 1 }));
    expect(Array.from(ranked.grades)).toEqual([]);
  });

  it.each<[string, RunLine[], string]>([
    [
      'with different scores, in order',
      [
        ['d1', 3],
        ['d2', 2],
        ['d1', 1],
      ],
      'd1',
    ],
    [
      'with different scores, out of order',
      [
        ['d1', 1],
        ['d2', 2],
        ['d1', 3],
      ],
      'd1',
    ],
    [
      'with equal scores',
      [
        ['d2', 1],
        ['d1', 1],
        ['d1', 1],
      ],
      'd1',
    ],
    [
      'as the only two lines',
      [
        ['d7', 0.5],
        ['d7', 0.5],
      ],
      'd7',
    ],
  ])('refuses to build a topic with a docno retrieved twice %s', (_described, lines, duplicate) => {
    // The run reader reports the line (run.test.ts); a topic built in code throws.
    expect(() => topicRun(lines)).toThrow(`Document ${duplicate} is retrieved twice`);
  });
});

describe('compareBytes', () => {
  it.each<[string, string, number]>([
    ['a', 'a', 0],
    ['', '', 0],
    ['a', 'b', -1],
    ['b', 'a', 1],
    ['D9', 'd1', -1],
    ['d1', 'd10', -1],
    ['d9', 'd10', 1],
    ['', 'a', -1],
    // UTF-8 byte order is code point order
    ['z', 'é', -1],
    ['\uFFFD', '\u{1F600}', -1],
    ['\uE000', '\u{10000}', -1],
    ['\uD7FF', '\uE000', -1],
    ['\u{10000}', '\u{1F600}', -1],
    ['\u{1F600}', '\uFFFF', 1],
  ])('compares %j with %j: %i', (a, b, sign) => {
    expect(Math.sign(compareBytes(a, b))).toBe(sign);
    expect(Math.sign(compareBytes(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
  });
});

describe('compareTrec', () => {
  it.each<[number, string, number, string, number]>([
    [2, 'a', 1, 'z', -1],
    [1, 'z', 2, 'a', 1],
    [1, 'd9', 1, 'd10', -1],
    [1, 'd1', 1, 'D9', -1],
    [1, 'x', 1, 'x', 0],
  ])('puts (%d, %s) relative to (%d, %s): %i', (scoreA, idA, scoreB, idB, sign) => {
    expect(Math.sign(compareTrec(scoreA, idA, scoreB, idB))).toBe(sign);
  });
});
