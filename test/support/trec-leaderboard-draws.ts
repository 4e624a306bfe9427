import type { Leaderboard } from '../../shared/schema/leaderboard.js';
import type { PValueAdjustmentMethod } from '../../shared/schema/p-value-adjustment.js';
import { LeaderboardTally } from '../../shared/statistics/leaderboard.js';
import type { SeededRandom } from '../../shared/statistics/seeded-random.js';
import { fixtureJson } from './fixture-json.js';
import { seededSample } from './seeded-sample.js';

/**
 * The leaderboard on TREC 2019 Deep Learning (test/fixtures/corrected/dl2019-ndcg10.json:
 * the 37 official runs' nDCG@10 on 43 topics under the NIST labels and under
 * an LLM judge's), in seeded draws: each draw labels a random `labelled` of
 * the topics, gives the judge's value on every topic and the human one on
 * those, and ranks the runs as `assay agreement` does
 * (shared/statistics/leaderboard.ts). Against the all-human means, it counts
 * the pairs separated and the separated pairs put in the wrong order. Shared
 * by the unit test of the leaderboard and bench/leaderboard-trec.bench.ts.
 */
export interface DrawTally {
  readonly draws: number;
  /** Draws in which some separated pair is in the wrong order. */
  readonly drawsWithWrongOrder: number;
  /** Separated pairs in the wrong order, over all draws. */
  readonly wrongPairs: number;
  /** Separated pairs, over all draws. */
  readonly separated: number;
  /** The fewest separated pairs of a draw. */
  readonly fewestSeparated: number;
  /** Pairs tested by their corrected difference, over all draws; the rest by the paired t-test or not at all. */
  readonly correctedPairs: number;
}

export interface TrecRuns {
  readonly names: readonly string[];
  readonly topics: readonly string[];
  /** values[run][topic] = [human, judge]. */
  readonly values: readonly (readonly (readonly [number, number])[])[];
}

/** The fixture's runs, topics in the order of the first run, every run on every topic. */
export function trecRuns(): TrecRuns {
  const { runs } = fixtureJson('corrected/dl2019-ndcg10.json') as { runs: Record<string, Record<string, [number, number]>> };
  const names = Object.keys(runs).sort();
  const topics = Object.keys(runs[names[0] as string] ?? {}).sort();
  const values = names.map((name) => topics.map((topic) => runs[name]?.[topic] as [number, number]));
  return { names, topics, values };
}

/** One draw: `labelled` random topics labelled, the leaderboard of the runs. */
export function drawLeaderboard(
  data: TrecRuns,
  labelled: number,
  random: SeededRandom,
  settings: { readonly method: PValueAdjustmentMethod; readonly alpha?: number },
): Leaderboard {
  const chosen = new Set(seededSample(data.topics.length, labelled, random));
  const tally = new LeaderboardTally(data.names, 'corrected');
  for (let topic = 0; topic < data.topics.length; topic++) {
    tally.add(data.values.map((run) => ({ judge: run[topic]?.[1], human: chosen.has(topic) ? run[topic]?.[0] : undefined })));
  }
  const alpha = settings.alpha ?? 0.05;
  return tally.leaderboard({
    metric: 'ndcg_cut.10',
    judge: 'llm',
    unit: 'topics',
    level: 1 - alpha,
    minLabelled: 8,
    alpha,
    method: settings.method,
  });
}

/** `draws` seeded draws of `labelled` topics: separations and wrong orders against the all-human means. */
export function tallyDraws(
  data: TrecRuns,
  labelled: number,
  draws: number,
  random: SeededRandom,
  settings: { readonly method: PValueAdjustmentMethod; readonly alpha?: number },
): DrawTally {
  const truth = new Map(data.names.map((name, index) => [name, mean((data.values[index] ?? []).map(([human]) => human))]));
  let drawsWithWrongOrder = 0;
  let wrongPairs = 0;
  let separated = 0;
  let fewestSeparated = Number.POSITIVE_INFINITY;
  let correctedPairs = 0;
  for (let draw = 0; draw < draws; draw++) {
    const board = drawLeaderboard(data, labelled, random, settings);
    let wrong = 0;
    for (const pair of board.pairs) {
      correctedPairs += Number(pair.test === 'corrected');
      if (!pair.separated || pair.difference === null) continue;
      const trueDifference = (truth.get(pair.names[0]) as number) - (truth.get(pair.names[1]) as number);
      if (Math.sign(pair.difference) !== Math.sign(trueDifference)) wrong++;
    }
    drawsWithWrongOrder += Number(wrong > 0);
    wrongPairs += wrong;
    separated += board.separated;
    fewestSeparated = Math.min(fewestSeparated, board.separated);
  }
  return { draws, drawsWithWrongOrder, wrongPairs, separated, fewestSeparated, correctedPairs };
}

function mean(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0) / values.length;
}
