import { describe, expect, it } from 'vitest';
import { addCase, correctedMean, emptyPairedSums, type CorrectedMean } from '../../../shared/statistics/prediction-powered-mean.js';
import { seededRandom, type SeededRandom } from '../../../shared/statistics/seeded-random.js';
import { fixtureJson } from '../../support/fixture-json.js';
import { seededSample } from '../../support/seeded-sample.js';

/**
 * Whether the corrected intervals hold: the share of random labelled samples
 * whose 95% interval contains the mean over every case, on data the
 * repository ships (TREC 2019 Deep Learning runs under human labels and under
 * an LLM's, which rates them 0.185 higher on average: test/fixtures/corrected/)
 * and on synthetic data with a known truth, each draw seeded.
 */
type Pairs = readonly (readonly [human: number, judge: number])[];

interface Tally {
  draws: number;
  covered: number;
  humanCovered: number;
  /** Draws where the judge-only mean, given the corrected interval's width, would not contain the truth. */
  judgeOnlyMisses: number;
  /** Draws where every labelled case had one human value, so no interval was given. */
  withoutInterval: number;
  correctedWidth: number;
  humanWidth: number;
}

/** `draws` random samples of `labelled` of the cases, each estimated with the rest as unlabelled. */
function tally(populations: readonly Pairs[], labelled: number, draws: number, random: SeededRandom): Tally {
  const result: Tally = { draws: 0, withoutInterval: 0, covered: 0, humanCovered: 0, judgeOnlyMisses: 0, correctedWidth: 0, humanWidth: 0 };
  for (const cases of populations) {
    const truth = cases.reduce((sum, [human]) => sum + human, 0) / cases.length;
    for (let draw = 0; draw < draws; draw++) {
      const chosen = new Set(seededSample(cases.length, labelled, random));
      const sums = emptyPairedSums();
      cases.forEach(([human, judge], index) => {
        addCase(sums, judge, chosen.has(index) ? human : undefined);
      });
      const outcome = correctedMean(sums, { level: 0.95, minLabelled: 8 });
      result.draws += 1;
      // No interval (every labelled topic has the same human value): counted as a miss.
      if (!outcome.ok) {
        result.withoutInterval += 1;
        continue;
      }
      const { corrected, humanOnly, judgeOnly }: CorrectedMean = outcome.value;
      result.covered += Number(corrected.low <= truth && truth <= corrected.high);
      result.humanCovered += Number(humanOnly.low <= truth && truth <= humanOnly.high);
      result.judgeOnlyMisses += Number(Math.abs(judgeOnly - truth) > (corrected.high - corrected.low) / 2);
      result.correctedWidth += corrected.high - corrected.low;
      result.humanWidth += humanOnly.high - humanOnly.low;
    }
  }
  // Mean widths over the draws with an interval.
  const withInterval = result.draws - result.withoutInterval;
  return { ...result, correctedWidth: result.correctedWidth / withInterval, humanWidth: result.humanWidth / withInterval };
}

describe('corrected intervals on TREC 2019 Deep Learning runs, judged by an LLM that rates them 0.185 too high', () => {
  const { runs } = fixtureJson('corrected/dl2019-ndcg10.json') as { runs: Record<string, Record<string, [number, number]>> };
  const populations: Pairs[] = Object.values(runs).map((topics) => Object.values(topics));

  it.each([{ labelled: 10 }, { labelled: 20 }])(
    'contain the all-human mean of 37 runs × 43 topics in at least 93 in 100 draws of $labelled labelled topics, narrower than human-only, where the judge-only mean misses',
    ({ labelled }) => {
      // Act: 200 draws a run
      const result = tally(populations, labelled, 200, seededRandom(2026 + labelled));

      // Assess
      expect(result.draws).toBe(37 * 200);
      // A draw of weak runs' topics that all score 0 gives no interval: rare, and a miss in the coverage.
      expect(result.withoutInterval / result.draws).toBeLessThan(0.01);
      expect(result.covered / result.draws).toBeGreaterThanOrEqual(0.93);
      expect(result.correctedWidth).toBeLessThan(0.85 * result.humanWidth);
      expect(result.judgeOnlyMisses / result.draws).toBeGreaterThan(0.9);
    },
  );
});

describe('corrected intervals on synthetic data with a known truth', () => {
  /** N cases: human values around 0.5, the judge's 0.18 higher, correlated with them by `correlation`, both kept in [0, 1]. */
  function population(size: number, correlation: number, random: SeededRandom): Pairs {
    const normal = (): number => {
      const first = (random.nextUint32() + 1) / 2 ** 32;
      const second = random.nextUint32() / 2 ** 32;
      return Math.sqrt(-2 * Math.log(first)) * Math.cos(2 * Math.PI * second);
    };
    const clamp = (value: number): number => Math.min(1, Math.max(0, value));
    return Array.from({ length: size }, () => {
      const shared = normal();
      const own = normal();
      return [clamp(0.5 + 0.2 * shared), clamp(0.68 + 0.2 * (correlation * shared + Math.sqrt(1 - correlation ** 2) * own))] as const;
    });
  }

  it.each([
    { size: 43, correlation: 0.9, labelled: 10 },
    { size: 43, correlation: 0.6, labelled: 20 },
    { size: 200, correlation: 0.9, labelled: 20 },
    { size: 200, correlation: 0, labelled: 10 },
    { size: 43, correlation: 0, labelled: 20 },
  ])(
    'N $size, a judge correlated $correlation, $labelled labelled: 93%+ coverage; narrower when the judge follows the humans, at most 5% wider when not',
    ({ size, correlation, labelled }) => {
      // Prepare
      const random = seededRandom(size * 1000 + correlation * 100 + labelled);
      const populations = Array.from({ length: 10 }, () => population(size, correlation, random));

      // Act
      const result = tally(populations, labelled, 300, random);

      // Assess
      expect(result.covered / result.draws).toBeGreaterThanOrEqual(0.93);
      expect(result.humanCovered / result.draws).toBeGreaterThanOrEqual(0.93);
      if (correlation >= 0.6) expect(result.correctedWidth).toBeLessThan(0.9 * result.humanWidth);
      else expect(result.correctedWidth).toBeLessThanOrEqual(1.05 * result.humanWidth);
    },
  );
});
