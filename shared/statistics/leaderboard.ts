import type { Leaderboard, LeaderboardPair } from '../schema/leaderboard.js';
import type { PValueAdjustmentMethod } from '../schema/p-value-adjustment.js';
import { compactLetterDisplay } from './compact-letter-display.js';
import { describeNoInterval } from './corrected-estimate.js';
import { adjustPValues } from './p-value-adjustment.js';
import { addCase, correctedMean, emptyPairedSums, type PairedSums } from './prediction-powered-mean.js';

/**
 * A leaderboard (shared/schema/leaderboard.ts) from the systems' values case
 * by case (a run's engines and its cases, or a collection's runs and its
 * topics): only sums are kept, a few per system and per pair, so the cases
 * can stream by.
 *
 * - `corrected`: each case gives each system the judge's value and, when it
 *   is labelled, the human one. A system is ranked by its corrected mean
 *   (prediction-powered, prediction-powered-mean.ts, over the cases with the
 *   judge's value); a pair is tested by the corrected mean of its per-case
 *   differences over the queries the cases stand for (the judge's difference
 *   on every case both have, the human one where both are labelled: the
 *   shared cases cancel, so the pair's test is far more precise than the two
 *   systems' intervals), its p-value that of its t statistic. Where that has
 *   no interval (too few cases labelled in both), the pair falls back to
 *   Student's paired t-test on the cases labelled in both.
 * - `plain`: each case gives each system one value (no judge to correct it):
 *   systems are ranked by their mean, pairs tested by Student's paired t-test
 *   on the cases both have. (The corrected mean of a difference with every
 *   case labelled is exactly that test, which is how it is computed here.)
 *
 * The p-values of the pairs tested are adjusted across the pairs
 * (p-value-adjustment.ts), a pair is separated when its adjusted p-value is
 * below alpha, and the separations become a compact letter display
 * (compact-letter-display.ts). The t-based tests give continuous p-values,
 * which the adjustment over hundreds of pairs needs (a randomization test's
 * floor of 1/(P + 1) would hold back Holm's first steps), from sums alone.
 */
export type LeaderboardKind = 'corrected' | 'plain';

/** A leaderboard is given from this many systems up: with two, the one pair is a comparison, which reports and `assay agreement` give already. */
export const LEADERBOARD_SYSTEMS = 3;

/** One system's values on one case: the human value (or the plain one), and the judge's for a corrected leaderboard. */
export interface CaseValue {
  readonly human?: number | undefined;
  readonly judge?: number | undefined;
}

export interface LeaderboardSettings {
  readonly metric: string;
  readonly judge?: string;
  readonly unit: 'cases' | 'topics';
  /** The corrected means' level and fewest labelled cases: run.corrected_estimates, or `assay agreement`'s. */
  readonly level: number;
  readonly minLabelled: number;
  readonly alpha: number;
  readonly method: PValueAdjustmentMethod;
}

/** The significance level that goes with a confidence level, 1 − level, without the last bits of the subtraction (1 − 0.95 is 0.050000000000000044). */
export function alphaOfLevel(level: number): number {
  return Math.round((1 - level) * 1e12) / 1e12;
}

/** The fewest cases a paired t-test is run on: with fewer, no variance to speak of. */
const FEWEST_PAIRED = 3;

export class LeaderboardTally {
  private readonly systems: PairedSums[];
  /** Per pair (i < j, i before j in `names`): the differences i − j. */
  private readonly pairs: PairedSums[];
  /** The same on the cases labelled in both, human differences only: the corrected pair's fallback. */
  private readonly labelledPairs: PairedSums[];

  constructor(
    private readonly names: readonly string[],
    private readonly kind: LeaderboardKind,
  ) {
    const pairCount = (names.length * (names.length - 1)) / 2;
    this.systems = names.map(() => emptyPairedSums());
    this.pairs = Array.from({ length: pairCount }, () => emptyPairedSums());
    this.labelledPairs = kind === 'corrected' ? Array.from({ length: pairCount }, () => emptyPairedSums()) : [];
  }

  /** One case: each system's values, by its index in `names` (undefined: the system has no value on the case). */
  add(values: readonly (CaseValue | undefined)[]): void {
    const count = this.names.length;
    const main = new Array<number | undefined>(count);
    const human = new Array<number | undefined>(count);
    for (let index = 0; index < count; index++) {
      const value = values[index];
      human[index] = finite(value?.human);
      main[index] = this.kind === 'corrected' ? finite(value?.judge) : human[index];
      const own = main[index];
      if (own !== undefined) addCase(this.systems[index] as PairedSums, own, this.kind === 'corrected' ? human[index] : own);
    }
    let pair = 0;
    for (let first = 0; first < count; first++) {
      for (let second = first + 1; second < count; second++, pair++) {
        const [left, right] = [main[first], main[second]];
        const [humanLeft, humanRight] = [human[first], human[second]];
        const humanDifference = humanLeft === undefined || humanRight === undefined ? undefined : humanLeft - humanRight;
        if (left !== undefined && right !== undefined) {
          const difference = left - right;
          addCase(this.pairs[pair] as PairedSums, difference, this.kind === 'corrected' ? humanDifference : difference);
        }
        if (this.kind === 'corrected' && humanDifference !== undefined)
          addCase(this.labelledPairs[pair] as PairedSums, humanDifference, humanDifference);
      }
    }
  }

  leaderboard(settings: LeaderboardSettings): Leaderboard {
    const ranked = this.names
      .map((name, index) => ({ name, index, ...this.systemMean(index, settings) }))
      .filter((system) => system.n > 0)
      .sort((left, right) => right.mean - left.mean || (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    const pairs: (Omit<LeaderboardPair, 'adjusted_p_value' | 'separated'> & { positions: [number, number] })[] = [];
    for (let upper = 0; upper < ranked.length; upper++) {
      for (let lower = upper + 1; lower < ranked.length; lower++) {
        const [first, second] = [ranked[upper], ranked[lower]] as [(typeof ranked)[number], (typeof ranked)[number]];
        pairs.push({ positions: [upper, lower], names: [first.name, second.name], ...this.pairTest(first.index, second.index, settings) });
      }
    }
    const tested = pairs.flatMap((pair, index) => (pair.p_value === null ? [] : [{ index, pValue: pair.p_value }]));
    const adjusted = adjustPValues(
      tested.map(({ pValue }) => pValue),
      settings.method,
    );
    const adjustedOf = new Map(tested.map(({ index }, position) => [index, adjusted[position] as number]));
    const done: LeaderboardPair[] = pairs.map(({ positions: _, ...pair }, index) => {
      const adjustedPValue = adjustedOf.get(index) ?? null;
      const { reason, ...rest } = pair;
      return {
        ...rest,
        adjusted_p_value: adjustedPValue,
        separated: adjustedPValue !== null && adjustedPValue < settings.alpha,
        ...(reason === undefined ? {} : { reason }),
      };
    });
    const separatedPairs = pairs.flatMap((pair, index) => (done[index]?.separated === true ? [pair.positions] : []));
    const letters = compactLetterDisplay(ranked.length, separatedPairs);
    return {
      metric: settings.metric,
      ...(settings.judge === undefined ? {} : { judge: settings.judge }),
      unit: settings.unit,
      adjustment: { method: settings.method, family: 'pairs', tests: tested.length, alpha: settings.alpha },
      ranking: ranked.map((system, position) => ({
        name: system.name,
        rank: position + 1,
        mean: system.mean,
        estimate: system.estimate,
        n: system.n,
        ...(system.labelled === undefined ? {} : { labelled: system.labelled }),
        letters: letters?.[position] ?? [],
      })),
      pairs: done,
      separated: separatedPairs.length,
      ...(letters === undefined
        ? { letters_reason: 'the separations contradict each other into more groups than letters can show: read the pairs' }
        : {}),
    };
  }

  /** A system's mean: corrected where its labelled cases allow, else the human one, else the judge's; or the plain mean. */
  private systemMean(
    index: number,
    settings: LeaderboardSettings,
  ): { mean: number; estimate: Leaderboard['ranking'][number]['estimate']; n: number; labelled?: number } {
    const sums = this.systems[index] as PairedSums;
    if (this.kind === 'plain') return { mean: sums.all === 0 ? 0 : sums.sumJudgeAll / sums.all, estimate: 'mean', n: sums.all };
    const counts = { n: sums.all, labelled: sums.labelled };
    const outcome = correctedMean(sums, { level: settings.level, minLabelled: settings.minLabelled });
    if (outcome.ok) return { mean: outcome.value.corrected.mean, estimate: 'corrected', ...counts };
    if (sums.labelled > 0) return { mean: sums.sumHuman / sums.labelled, estimate: 'human', ...counts };
    return { mean: sums.all === 0 ? 0 : sums.sumJudgeAll / sums.all, estimate: 'judge', ...counts };
  }

  /** The test of one pair, `first` minus `second` (indices into `names`). */
  private pairTest(
    first: number,
    second: number,
    settings: LeaderboardSettings,
  ): Pick<LeaderboardPair, 'test' | 'difference' | 'n' | 'labelled' | 'p_value' | 'reason'> {
    const [low, high] = first < second ? [first, second] : [second, first];
    const sign = first < second ? 1 : -1;
    const pair = pairIndex(low, high, this.names.length);
    const sums = this.pairs[pair] as PairedSums;
    if (this.kind === 'plain') return pairedT(sums, sign, settings.unit, undefined);
    const corrected = correctedMean(sums, { level: settings.level, minLabelled: settings.minLabelled, population: 'superpopulation' });
    if (corrected.ok) {
      return {
        test: 'corrected',
        difference: sign * corrected.value.corrected.mean,
        n: sums.all,
        labelled: sums.labelled,
        p_value: corrected.value.corrected.pValue,
      };
    }
    return pairedT(
      this.labelledPairs[pair] as PairedSums,
      sign,
      settings.unit,
      `no corrected difference: ${describeNoInterval(corrected.error, settings.unit)}`,
    );
  }
}

/** Student's paired t-test from the sums of the differences, each added as its own human value (every case labelled). */
function pairedT(
  sums: PairedSums,
  sign: number,
  unit: 'cases' | 'topics',
  why: string | undefined,
): Pick<LeaderboardPair, 'test' | 'difference' | 'n' | 'p_value' | 'reason'> {
  const outcome = correctedMean(sums, { level: 0.95, minLabelled: FEWEST_PAIRED, population: 'superpopulation' });
  const labelled = why === undefined ? '' : 'labelled ';
  if (!outcome.ok) {
    const reason = `${sums.all} ${unit} ${labelled}in common: fewer than the ${FEWEST_PAIRED} a paired t-test needs`;
    return { test: 'none', difference: null, n: sums.all, p_value: null, reason: why === undefined ? reason : `${why}; ${reason}` };
  }
  return {
    test: 'paired_t',
    difference: sign * outcome.value.corrected.mean,
    n: sums.all,
    p_value: outcome.value.corrected.pValue,
    ...(why === undefined ? {} : { reason: `${why}; the paired t-test on the ${sums.all} ${unit} labelled in both instead` }),
  };
}

/** The position of pair (low, high), low < high, in the order the tally adds them: (0,1), (0,2), ..., (1,2), ... */
function pairIndex(low: number, high: number, count: number): number {
  return (low * (2 * count - low - 1)) / 2 + (high - low - 1);
}

function finite(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) ? value : undefined;
}
