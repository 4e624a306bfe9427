import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { averagePrecision } from '../../../shared/metrics/average-precision.js';
import { numberRelevant, numberRelevantRetrieved } from '../../../shared/metrics/counts.js';
import { judgeRanking, relevantCount, type JudgedRanking } from '../../../shared/metrics/judged-ranking.js';
import { ndcg } from '../../../shared/metrics/ndcg.js';
import { ndcgAt } from '../../../shared/metrics/ndcg-cut.js';
import { precisionAt, relevantInTop } from '../../../shared/metrics/precision.js';
import { rPrecision } from '../../../shared/metrics/r-precision.js';
import { correctlyRoundedLog2, rankDiscount } from '../../../shared/metrics/rank-discount.js';
import { recallAt } from '../../../shared/metrics/recall.js';
import { reciprocalRank } from '../../../shared/metrics/reciprocal-rank.js';
import { resolveMeasures, type Measure, type MeasureOptions } from '../../../shared/metrics/registry.js';
import { formatFixed4 } from '../../../shared/trec/format.js';
import { parseNumberBytes } from '../../../shared/trec/parse-number.js';
import { rankTopic } from '../../../shared/trec/rank-topic.js';
import { referenceFixed4 } from '../trec/exact-decimal.js';
import { judgments, topicRun } from '../trec/factories.js';
import { referenceLog2, ulpDistance } from './exact-log2.js';

// Seeded, so a failure reproduces; run counts keep the file well under a second or two.
const settings = { seed: 42, numRuns: 300 } as const;

/** One query: a ranked list of distinct ids drawn from a pool, and graded judgments of some of the pool. */
interface Query {
  readonly rankedIds: string[];
  readonly judgments: Map<string, number>;
}

const POOL_SIZE = 40;
const documentId = (index: number): string => `d${index}`;

const queryArbitrary: fc.Arbitrary<Query> = fc
  .record({
    retrieved: fc.uniqueArray(fc.integer({ min: 0, max: POOL_SIZE - 1 }), { maxLength: 25 }),
    // grades -2..3: negative grades are "judged, to be ignored"
    judged: fc.array(fc.tuple(fc.integer({ min: 0, max: POOL_SIZE - 1 }), fc.integer({ min: -2, max: 3 })), { maxLength: 30 }),
  })
  .map(({ retrieved, judged }) => ({
    rankedIds: retrieved.map(documentId),
    judgments: new Map(judged.map(([index, grade]) => [documentId(index), grade])),
  }));

const levelArbitrary = fc.integer({ min: 0, max: 3 });
const positiveLevelArbitrary = fc.integer({ min: 1, max: 3 });
const cutoffArbitrary = fc.integer({ min: 1, max: 40 });

const judge = (query: Query): JudgedRanking => judgeRanking(query.rankedIds, query.judgments);
const gradeOf = (query: Query, id: string): number => query.judgments.get(id) ?? -1;

function measuresOf(name: string): Measure[] {
  const resolved = resolveMeasures(name);
  if (!resolved.ok) throw new Error(resolved.error);
  return resolved.value;
}

describe('properties of the measures', () => {
  it('are in [0, 1] and never NaN, for any ranking, judgments, level, cutoff and gain', () => {
    fc.assert(
      fc.property(
        queryArbitrary,
        levelArbitrary,
        cutoffArbitrary,
        fc.constantFrom('linear', 'exponential'),
        (query, relevanceLevel, k, gain) => {
          const options: MeasureOptions = { relevanceLevel, gain };
          const measures = [
            `P.${k}`,
            `recall.${k}`,
            `ndcg_cut.${k}`,
            `map_cut.${k}`,
            `success.${k}`,
            'map',
            'Rprec',
            'recip_rank',
            'ndcg',
            'document_recall',
          ].flatMap(measuresOf);
          const judged = judge(query);
          for (const measure of measures) {
            const value = measure.compute(judged, options);
            if (measure.name === 'document_recall' && relevantCount(judged, relevanceLevel) === 0) {
              expect(value).toBeUndefined();
              continue;
            }
            expect(value, measure.name).toBeGreaterThanOrEqual(0);
            expect(value, measure.name).toBeLessThanOrEqual(1);
          }
        },
      ),
      settings,
    );
  });

  it('ndcg with a named gain gives the same bits as with the same gains written as a map', () => {
    fc.assert(
      fc.property(queryArbitrary, (query) => {
        const judged = judge(query);
        const exponential = new Map(Array.from({ length: 4 }, (_, grade) => [grade, 2 ** grade - 1] as const));
        expect(Object.is(ndcg(judged, 'linear'), ndcg(judged, new Map()))).toBe(true);
        expect(Object.is(ndcg(judged, 'exponential'), ndcg(judged, exponential))).toBe(true);
      }),
      settings,
    );
  });

  it('P@k * k is the number of relevant documents in the top k', () => {
    fc.assert(
      fc.property(queryArbitrary, levelArbitrary, cutoffArbitrary, (query, level, k) => {
        const judged = judge(query);
        const count = relevantInTop(judged, k, level);
        expect(Math.abs(precisionAt(judged, k, level) * k - count)).toBeLessThan(1e-12);
        expect(count).toBeLessThanOrEqual(Math.min(k, judged.grades.length));
      }),
      settings,
    );
  });

  it('recall at an unbounded cutoff is num_rel_ret / R (0 when R = 0)', () => {
    fc.assert(
      fc.property(queryArbitrary, levelArbitrary, (query, level) => {
        const judged = judge(query);
        const relevant = numberRelevant(judged, level);
        const expected = relevant === 0 ? 0 : numberRelevantRetrieved(judged, level) / relevant;
        expect(recallAt(judged, Number.POSITIVE_INFINITY, level)).toBe(expected);
        expect(recallAt(judged, Math.max(1, judged.grades.length), level)).toBe(expected);
      }),
      settings,
    );
  });

  it('P@R equals Rprec', () => {
    fc.assert(
      fc.property(queryArbitrary, levelArbitrary, (query, level) => {
        const judged = judge(query);
        const relevant = relevantCount(judged, level);
        fc.pre(relevant > 0);
        expect(precisionAt(judged, relevant, level)).toBe(rPrecision(judged, level));
      }),
      settings,
    );
  });

  it('AP is at most 1, and exactly 1 when and only when every relevant document is retrieved on top', () => {
    fc.assert(
      fc.property(queryArbitrary, levelArbitrary, (query, level) => {
        const judged = judge(query);
        const relevant = relevantCount(judged, level);
        const topIsAllRelevant = relevant > 0 && relevant <= judged.grades.length && relevantInTop(judged, relevant, level) === relevant;
        const value = averagePrecision(judged, level);
        expect(value).toBeLessThanOrEqual(1);
        expect(value === 1).toBe(topIsAllRelevant);
      }),
      settings,
    );
  });

  it('ndcg@k equals ndcg once k covers the list and every judged document with gain', () => {
    fc.assert(
      fc.property(queryArbitrary, fc.nat(10), fc.constantFrom('linear', 'exponential'), (query, extra, gain) => {
        const judged = judge(query);
        const withGain = [...query.judgments.values()].filter((grade) => grade > 0).length;
        const k = Math.max(judged.grades.length, withGain, 1) + extra;
        expect(ndcgAt(judged, k, gain)).toBe(ndcg(judged, gain));
      }),
      settings,
    );
  });

  it('a ranking in ideal order has ndcg 1 and ndcg@k 1 for every k', () => {
    fc.assert(
      fc.property(queryArbitrary, cutoffArbitrary, fc.constantFrom('linear', 'exponential'), (query, k, gain) => {
        // every judged document with gain, highest grade first, then the rest of the list
        const withGain = [...query.judgments]
          .filter(([, grade]) => grade > 0)
          .sort(([, a], [, b]) => b - a)
          .map(([id]) => id);
        fc.pre(withGain.length > 0);
        const rest = query.rankedIds.filter((id) => gradeOf(query, id) <= 0);
        const ideal = judgeRanking([...withGain, ...rest], query.judgments);
        expect(ndcg(ideal, gain)).toBe(1);
        expect(ndcgAt(ideal, k, gain)).toBe(1);
      }),
      settings,
    );
  });

  it('appending non-relevant documents changes neither P@k for k up to the old length, AP, RR nor NDCG', () => {
    fc.assert(
      fc.property(queryArbitrary, positiveLevelArbitrary, fc.nat(10), (query, level, howMany) => {
        // documents not yet retrieved that are unjudged, judged 0 or judged negatively
        const nonRelevant = Array.from({ length: POOL_SIZE + 10 }, (_, index) => documentId(index)).filter(
          (id) => !query.rankedIds.includes(id) && gradeOf(query, id) <= 0,
        );
        const before = judge(query);
        const after = judgeRanking([...query.rankedIds, ...nonRelevant.slice(0, howMany)], query.judgments);
        for (let k = 1; k <= query.rankedIds.length; k++) {
          expect(precisionAt(after, k, level)).toBe(precisionAt(before, k, level));
        }
        expect(averagePrecision(after, level)).toBe(averagePrecision(before, level));
        expect(reciprocalRank(after, level)).toBe(reciprocalRank(before, level));
        expect(ndcg(after)).toBe(ndcg(before));
      }),
      settings,
    );
  });

  it('moving a relevant document up never lowers AP or RR', () => {
    fc.assert(
      fc.property(queryArbitrary, levelArbitrary, fc.nat(), fc.nat(), (query, level, first, second) => {
        const size = query.rankedIds.length;
        fc.pre(size >= 2);
        const from = Math.max(first % size, second % size);
        const to = Math.min(first % size, second % size);
        fc.pre(gradeOf(query, query.rankedIds[from] as string) >= Math.max(level, 0));
        const moved = [...query.rankedIds];
        const [document] = moved.splice(from, 1);
        moved.splice(to, 0, document as string);
        const before = judge(query);
        const after = judgeRanking(moved, query.judgments);
        expect(averagePrecision(after, level)).toBeGreaterThanOrEqual(averagePrecision(before, level));
        expect(reciprocalRank(after, level)).toBeGreaterThanOrEqual(reciprocalRank(before, level));
      }),
      settings,
    );
  });

  it('swapping a document with a lower-graded one above it never lowers NDCG, ndcg@k, AP or RR', () => {
    fc.assert(
      fc.property(
        queryArbitrary,
        levelArbitrary,
        cutoffArbitrary,
        fc.nat(),
        fc.nat(),
        fc.constantFrom('linear', 'exponential'),
        (query, level, k, first, second, gain) => {
          const size = query.rankedIds.length;
          fc.pre(size >= 2);
          const lower = Math.max(first % size, second % size);
          const upper = Math.min(first % size, second % size);
          const ids = [...query.rankedIds];
          // Grades as stored: unjudged and negative documents count as below 0.
          const stored = (id: string): number => Math.max(gradeOf(query, id), -1);
          fc.pre(stored(ids[lower] as string) >= stored(ids[upper] as string));
          [ids[upper], ids[lower]] = [ids[lower] as string, ids[upper] as string];
          const before = judge(query);
          const after = judgeRanking(ids, query.judgments);
          expect(ndcg(after, gain)).toBeGreaterThanOrEqual(ndcg(before, gain));
          expect(ndcgAt(after, k, gain)).toBeGreaterThanOrEqual(ndcgAt(before, k, gain));
          expect(averagePrecision(after, level)).toBeGreaterThanOrEqual(averagePrecision(before, level));
          expect(reciprocalRank(after, level)).toBeGreaterThanOrEqual(reciprocalRank(before, level));
        },
      ),
      settings,
    );
  });

  it('linear and exponential NDCG agree exactly on binary labels', () => {
    const binaryQuery = queryArbitrary.map((query) => ({
      ...query,
      judgments: new Map([...query.judgments].map(([id, grade]) => [id, Math.min(grade, 1)])),
    }));
    fc.assert(
      fc.property(binaryQuery, cutoffArbitrary, (query, k) => {
        const judged = judge(query);
        expect(ndcg(judged, 'exponential')).toBe(ndcg(judged, 'linear'));
        expect(ndcgAt(judged, k, 'exponential')).toBe(ndcgAt(judged, k, 'linear'));
      }),
      settings,
    );
  });
});

describe('properties of the rank discount', () => {
  it('equals Math.log2 exactly where rank + 1 is a power of two', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 52 }), (small, large) => {
        expect(rankDiscount(2 ** small - 1)).toBe(Math.log2(2 ** small));
        expect(correctlyRoundedLog2(2 ** large)).toBe(Math.log2(2 ** large));
      }),
      settings,
    );
  });

  it('is within one unit in the last place of Math.log2, and equals the exact reference', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 2, max: 2 ** 40 }), (rank, integer) => {
        expect(ulpDistance(rankDiscount(rank), Math.log2(rank + 1))).toBeLessThanOrEqual(1);
        expect(rankDiscount(rank)).toBe(referenceLog2(rank + 1));
        expect(ulpDistance(correctlyRoundedLog2(integer), Math.log2(integer))).toBeLessThanOrEqual(1);
        expect(correctlyRoundedLog2(integer)).toBe(referenceLog2(integer));
      }),
      { ...settings, numRuns: 200 },
    );
  });
});

describe('properties of rankTopic', () => {
  // Characters whose UTF-8 byte order differs from UTF-16 order, plus the d / D / digit cases.
  const idArbitrary = fc
    .array(fc.constantFrom('d', 'D', '1', '9', '0', 'é', '\uE000', '\uFFFD', '\u{1F600}', '\u{10000}'), { minLength: 1, maxLength: 4 })
    .map((characters) => characters.join(''));
  const topicArbitrary = fc.uniqueArray(fc.tuple(idArbitrary, fc.constantFrom(-1, 0, 1, 2, 2.5)), {
    minLength: 1,
    maxLength: 20,
    selector: ([id]) => id,
  });
  const utf8Order = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

  it('orders by score, then docno in descending byte order, whatever the order of the lines', () => {
    fc.assert(
      fc.property(
        topicArbitrary.chain((entries) => fc.tuple(fc.constant(entries), fc.shuffledSubarray(entries, { minLength: entries.length }))),
        ([entries, shuffled]) => {
          // Each document's grade is its position in the input, so the grades spell out the order.
          const grades = judgments(Object.fromEntries(entries.map(([id], index) => [id, index])));
          const expected = entries
            .map(([id, score], index) => ({ id, score, index }))
            .sort((a, b) => b.score - a.score || utf8Order(b.id, a.id))
            .map(({ index }) => index);
          const original = rankTopic(topicRun(entries), grades);
          const permuted = rankTopic(topicRun(shuffled), grades);
          expect(Array.from(original.grades)).toEqual(expected);
          expect(Array.from(permuted.grades)).toEqual(expected);
        },
      ),
      settings,
    );
  });
});

describe('properties of formatFixed4', () => {
  it('equals the exact decimal rounding (half to even) for doubles in [0, 1]', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), (value) => {
        fc.pre(!Object.is(value, -0));
        expect(formatFixed4(value)).toBe(referenceFixed4(value));
      }),
      { ...settings, numRuns: 1000 },
    );
  });

  it('equals the exact decimal rounding for multiples of 1/32, where ties happen', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 35), max: 2 ** 35 }), (thirtySeconds) => {
        const value = thirtySeconds / 32;
        fc.pre(!Object.is(value, -0));
        expect(formatFixed4(value)).toBe(referenceFixed4(value));
      }),
      { ...settings, numRuns: 1000 },
    );
  });

  it('equals the exact decimal rounding for sums of a few fractions, as means of measures are', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 1, max: 50 })), { minLength: 1, maxLength: 6 }),
        (fractions) => {
          const value =
            fractions.reduce((sum, [numerator, denominator]) => sum + Math.min(numerator, denominator) / denominator, 0) / fractions.length;
          expect(formatFixed4(value)).toBe(referenceFixed4(value));
        },
      ),
      { ...settings, numRuns: 1000 },
    );
  });
});

describe('properties of parseNumberBytes', () => {
  const digits = (maxLength: number): fc.Arbitrary<string> =>
    fc.array(fc.constantFrom('0', '0', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'), { maxLength }).map((list) => list.join(''));
  const decimalText = (integerDigits: number, fractionDigits: number): fc.Arbitrary<string> =>
    fc
      .record({
        sign: fc.constantFrom('', '', '+', '-'),
        integer: digits(integerDigits),
        point: fc.boolean(),
        fraction: digits(fractionDigits),
        exponent: fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: 400 })), {
          freq: 4,
        }),
      })
      .filter(({ integer, point, fraction }) => integer.length + (point ? fraction.length : 0) > 0)
      .map(
        ({ sign, integer, point, fraction, exponent }) =>
          `${sign}${integer}${point ? `.${fraction}` : ''}${exponent === null ? '' : `${exponent[0]}${exponent[1]}${exponent[2]}`}`,
      );
  // short texts take the fast path, long mantissas and exponents the slow one
  const numberText = fc.oneof(decimalText(8, 10), decimalText(16, 24), decimalText(30, 40));
  const parse = (text: string, prefix = '', suffix = ''): number => {
    const buffer = Buffer.from(`${prefix}${text}${suffix}`, 'latin1');
    return parseNumberBytes(buffer, prefix.length, prefix.length + text.length);
  };

  it('equals Number(text) for decimal texts with signs, leading zeros, long mantissas and exponents', () => {
    fc.assert(
      fc.property(numberText, (text) => {
        expect(Object.is(parse(text), Number(text)), `${text}: ${parse(text)} vs ${Number(text)}`).toBe(true);
      }),
      { ...settings, numRuns: 2000 },
    );
  });

  it('reads only its own field of a longer line', () => {
    fc.assert(
      fc.property(numberText, (text) => {
        expect(Object.is(parse(text, 'q1 Q0 d1 1 ', ' run7'), Number(text))).toBe(true);
      }),
      settings,
    );
  });

  it('reads back every double written by JavaScript in fixed, exponential and shortest form', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: 0, max: 20 }), (value, digitsAfterPoint) => {
        for (const text of [String(value), value.toExponential(), value.toPrecision(17)]) {
          expect(Object.is(parse(text), Number(text)), text).toBe(true);
        }
        if (Math.abs(value) < 1e21) {
          const fixed = value.toFixed(digitsAfterPoint);
          expect(Object.is(parse(fixed), Number(fixed)), fixed).toBe(true);
        }
      }),
      settings,
    );
  });
});
