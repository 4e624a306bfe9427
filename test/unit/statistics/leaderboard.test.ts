import { describe, expect, it } from 'vitest';
import { correctedEstimate } from '../../../shared/statistics/corrected-estimate.js';
import { LeaderboardTally, type CaseValue } from '../../../shared/statistics/leaderboard.js';
import { benjaminiHochbergAdjusted } from '../../../shared/statistics/p-value-adjustment.js';
import { pairedTTest } from '../../../shared/statistics/paired-t-test.js';
import { addCase, correctedMean, emptyPairedSums } from '../../../shared/statistics/prediction-powered-mean.js';
import { seededRandom } from '../../../shared/statistics/seeded-random.js';
import { tallyDraws, trecRuns } from '../../support/trec-leaderboard-draws.js';

const SETTINGS = {
  metric: 'retrieval/ground_truth/ndcg@10',
  unit: 'cases' as const,
  level: 0.95,
  minLabelled: 8,
  alpha: 0.05,
  method: 'benjamini-hochberg' as const,
};

/** A plain leaderboard of `values[system][case]` (undefined: no value on that case). */
function plainBoard(names: readonly string[], values: readonly (readonly (number | undefined)[])[]) {
  const tally = new LeaderboardTally(names, 'plain');
  const cases = Math.max(...values.map((row) => row.length));
  for (let index = 0; index < cases; index++) tally.add(values.map((row) => ({ human: row[index] })));
  return tally.leaderboard(SETTINGS);
}

describe('a plain leaderboard', () => {
  it("ranks by the mean, tests each pair by Student's paired t-test, adjusts across the pairs and gives the letters", () => {
    // Arrange: 8 cases. high is low + 0.3 on every case, with a wobble; middle lies between, close to both.
    const low = [0.1, 0.2, 0.3, 0.4, 0.2, 0.3, 0.1, 0.2];
    const wobble = [0.02, -0.01, 0.03, -0.02, 0.01, 0, -0.03, 0.02];
    const high = low.map((value, index) => value + 0.3 + (wobble[index] as number));
    const middle = low.map((value, index) => value + 0.15 + 3 * (wobble[(index + 3) % 8] as number));

    // Act
    const board = plainBoard(['low', 'middle', 'high'], [low, middle, high]);

    // Assess: best first, each pair the higher-ranked first
    expect(board.ranking.map((system) => [system.name, system.rank, system.estimate, system.n])).toEqual([
      ['high', 1, 'mean', 8],
      ['middle', 2, 'mean', 8],
      ['low', 3, 'mean', 8],
    ]);
    expect(board.pairs.map((pair) => pair.names)).toEqual([
      ['high', 'middle'],
      ['high', 'low'],
      ['middle', 'low'],
    ]);
    const expected = [
      [high, middle],
      [high, low],
      [middle, low],
    ].map(
      ([first, second]) => pairedTTest((first as number[]).map((value, index) => value - ((second as number[])[index] as number))).pValue,
    );
    const adjusted = benjaminiHochbergAdjusted(expected);
    for (const [index, pair] of board.pairs.entries()) {
      expect(pair.test).toBe('paired_t');
      expect(pair.n).toBe(8);
      expect(pair.difference).toBeGreaterThan(0);
      expect(pair.p_value).toBeCloseTo(expected[index] as number, 10);
      expect(pair.adjusted_p_value).toBeCloseTo(adjusted[index] as number, 10);
      expect(pair.separated).toBe((adjusted[index] as number) < 0.05);
    }
    expect(board.adjustment).toEqual({ method: 'benjamini-hochberg', family: 'pairs', tests: 3, alpha: 0.05 });
    // Every pair is separated here: three letters.
    expect(board.separated).toBe(3);
    expect(board.ranking.map((system) => system.letters)).toEqual([['a'], ['b'], ['c']]);
  });

  it('gives two systems it cannot tell apart one letter, and leaves out a system without values', () => {
    // Arrange: twin differs from first by noise only; last is far below both; absent has no value at all.
    const first = [0.5, 0.6, 0.7, 0.55, 0.65, 0.6];
    const twin = [0.52, 0.58, 0.69, 0.57, 0.63, 0.61];
    const last = first.map((value) => value - 0.4 + ((value * 10) % 3) / 100);

    // Act
    const board = plainBoard(['first', 'twin', 'last', 'absent'], [first, twin, last, []]);

    // Assess
    expect(board.ranking.map((system) => system.name)).toEqual(['first', 'twin', 'last']);
    expect(board.pairs.find((pair) => pair.names[1] === 'twin')?.separated).toBe(false);
    expect(board.ranking.map((system) => system.letters)).toEqual([['a'], ['a'], ['b']]);
  });

  it('does not test a pair with fewer than 3 cases in common, and says why', () => {
    const board = plainBoard(
      ['a', 'b', 'c'],
      [
        [0.9, 0.8, 0.7, 0.9],
        [0.1, 0.2, undefined, undefined],
        [0.5, 0.4, 0.45, 0.5],
      ],
    );

    const pair = board.pairs.find((candidate) => candidate.names.includes('b') && candidate.names.includes('a'));
    expect(pair).toMatchObject({
      test: 'none',
      difference: null,
      n: 2,
      p_value: null,
      adjusted_p_value: null,
      separated: false,
      reason: '2 cases in common: fewer than the 3 a paired t-test needs',
    });
    // a and c alone share 3 cases or more: one test, its own family.
    expect(board.adjustment.tests).toBe(1);
  });
});

describe('a corrected leaderboard', () => {
  /** `systems` systems on `cases` cases, the judge 0.2 above the human value with noise, the first `labelled` cases labelled. */
  function correctedCases(systems: number, cases: number, labelled: number, seed: number): (CaseValue | undefined)[][] {
    const random = seededRandom(seed);
    const noise = (): number => random.nextBelow(1000) / 10_000 - 0.05;
    return Array.from({ length: cases }, (_, index) => {
      const difficulty = random.nextBelow(1000) / 2000;
      return Array.from({ length: systems }, (_, system) => {
        const human = difficulty + system * 0.05 + noise();
        return { judge: human + 0.2 + noise(), ...(index < labelled ? { human } : {}) };
      });
    });
  }

  it('ranks by the corrected mean and tests each pair by the corrected mean of its differences, as the corrected estimate gives it', () => {
    // Arrange
    const names = ['s0', 's1', 's2', 's3'];
    const cases = correctedCases(4, 60, 20, 3);
    const tally = new LeaderboardTally(names, 'corrected');
    for (const values of cases) tally.add(values);

    // Act
    const board = tally.leaderboard({ ...SETTINGS, judge: 'graded_relevance' });

    // Assess: the ranking is s3, s2, s1, s0, each mean the corrected one
    expect(board.ranking.map((system) => system.name)).toEqual(['s3', 's2', 's1', 's0']);
    for (const system of board.ranking) {
      const index = names.indexOf(system.name);
      const sums = emptyPairedSums();
      for (const values of cases) addCase(sums, values[index]?.judge as number, values[index]?.human);
      const expected = correctedMean(sums, { level: 0.95, minLabelled: 8 });
      expect(system).toMatchObject({ estimate: 'corrected', n: 60, labelled: 20 });
      expect(system.mean).toBeCloseTo(expected.ok ? expected.value.corrected.mean : Number.NaN, 12);
    }
    // A pair's p-value is the corrected difference's, over the queries the cases stand for
    const pair = board.pairs.find((candidate) => candidate.names[0] === 's3' && candidate.names[1] === 's0');
    const sums = emptyPairedSums();
    for (const values of cases) {
      const [first, second] = [values[3], values[0]];
      addCase(
        sums,
        (first?.judge as number) - (second?.judge as number),
        first?.human === undefined ? undefined : first.human - (second?.human as number),
      );
    }
    const estimate = correctedEstimate(sums, {
      level: 0.95,
      minLabelled: 8,
      population: 'superpopulation',
      unit: 'cases',
      judgeMeanWithoutInterval: false,
    });
    expect(pair).toMatchObject({ test: 'corrected', n: 60, labelled: 20, separated: true });
    expect(pair?.difference).toBeCloseTo(estimate.corrected?.mean ?? Number.NaN, 12);
    expect(pair?.p_value).toBeCloseTo(estimate.p_value ?? Number.NaN, 12);
  });

  it('falls back to the paired t-test on the cases labelled in both where too few are labelled for a corrected difference, and says so', () => {
    // Arrange: 5 labelled cases, fewer than the 8 a corrected interval needs
    const cases = correctedCases(2, 40, 5, 4);
    const tally = new LeaderboardTally(['s0', 's1'], 'corrected');
    for (const values of cases) tally.add(values);

    // Act
    const board = tally.leaderboard(SETTINGS);

    // Assess: the systems are ranked by their human means on the 5, and the pair tested on them
    expect(board.ranking.map((system) => system.estimate)).toEqual(['human', 'human']);
    const differences = cases.slice(0, 5).map((values) => (values[1]?.human as number) - (values[0]?.human as number));
    expect(board.pairs[0]).toMatchObject({
      names: ['s1', 's0'],
      test: 'paired_t',
      n: 5,
      reason:
        'no corrected difference: 5 labelled of 40 cases: fewer than the 8 an interval needs; the paired t-test on the 5 cases labelled in both instead',
    });
    expect(board.pairs[0]?.p_value).toBeCloseTo(pairedTTest(differences).pValue, 10);
  });
});

describe('the leaderboard on TREC 2019 Deep Learning (37 runs × 43 topics, an LLM judge on every topic)', () => {
  const data = trecRuns();

  it.each([
    { labelled: 10, fewest: 200 },
    { labelled: 20, fewest: 350 },
  ])(
    'separates $fewest of the 666 pairs or more on average over 40 draws of $labelled labelled topics, a wrong order in at most 5% of draws',
    ({ labelled, fewest }) => {
      // Act: Benjamini-Hochberg across the pairs, alpha 0.05; bench/leaderboard-trec.bench.ts draws 1,000
      const tally = tallyDraws(data, labelled, 40, seededRandom(2026 + labelled), { method: 'benjamini-hochberg' });

      // Assess
      expect(data.names).toHaveLength(37);
      expect(data.topics).toHaveLength(43);
      expect(tally.separated / tally.draws).toBeGreaterThanOrEqual(fewest);
      expect(tally.drawsWithWrongOrder / tally.draws).toBeLessThanOrEqual(0.05);
    },
  );

  it('puts a pair in the wrong order in more than 10% of draws of 10 labelled topics without the adjustment', () => {
    // The same draws as the adjusted ones above (one in 40 with a wrong order).
    const unadjusted = tallyDraws(data, 10, 40, seededRandom(2036), { method: 'none' });

    expect(unadjusted.drawsWithWrongOrder / unadjusted.draws).toBeGreaterThan(0.1);
  });
});
