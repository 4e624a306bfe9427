import { z } from 'zod';
import { seededRandom } from '../shared/statistics/seeded-random.js';
import { tallyDraws, trecRuns } from '../test/support/trec-leaderboard-draws.js';
import type { PValueAdjustmentMethod } from '../shared/schema/p-value-adjustment.js';
import { benchArgs, benchOptions, listOf, seed as seedOption, wholeNumber } from './bench-options.js';

/**
 * The leaderboard on TREC 2019 Deep Learning (test/support/trec-leaderboard-draws.ts):
 * the 37 official runs' nDCG@10 on 43 topics, an LLM judge's labels on every
 * topic and the NIST labels on a random --labelled of them, --draws seeded
 * draws each. Per adjustment of the 666 pairs' p-values (Benjamini-Hochberg,
 * the leaderboard's default; Holm's; none), the pairs separated in a draw (its
 * mean and fewest), and the draws in which a separated pair is in the wrong
 * order against the means under all the human labels.
 *
 *   npm run bench:leaderboard-trec -- [--draws 1000] [--labelled 10,20,43] [--seed 2026]
 */
const { values } = benchArgs('bench:leaderboard-trec', {
  options: {
    draws: { type: 'string', default: '1000' },
    labelled: { type: 'string', default: '10,20,43' },
    seed: { type: 'string', default: '2026' },
  },
});
const data = trecRuns();
const options = benchOptions(
  'bench:leaderboard-trec',
  z.object({ draws: wholeNumber(1), labelled: listOf(wholeNumber(0, data.topics.length)), seed: seedOption() }),
  values,
);
const { draws, seed } = options;
const labelledCounts = options.labelled;
const methods: PValueAdjustmentMethod[] = ['benjamini-hochberg', 'holm', 'none'];

const pairs = (data.names.length * (data.names.length - 1)) / 2;
console.log(
  `${data.names.length} runs × ${data.topics.length} topics, ${pairs} pairs, ${draws} seeded draws (seed ${seed}) each, alpha 0.05`,
);
console.log(
  'labelled  method              pairs separated (mean, fewest)   draws with a wrong order   wrong pairs   corrected tests   seconds',
);
for (const labelled of labelledCounts) {
  for (const method of methods) {
    const started = performance.now();
    // The same seed for every method: the same draws, adjusted three ways.
    const tally = tallyDraws(data, labelled, draws, seededRandom(seed + labelled), { method });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const separated = `${(tally.separated / draws).toFixed(1)}, ${tally.fewestSeparated}`;
    const wrong = `${tally.drawsWithWrongOrder}/${draws} (${((100 * tally.drawsWithWrongOrder) / draws).toFixed(1)}%)`;
    const corrected = `${((100 * tally.correctedPairs) / (draws * pairs)).toFixed(1)}%`;
    console.log(
      `${String(labelled).padEnd(8)}  ${method.padEnd(18)}  ${separated.padEnd(31)}  ${wrong.padEnd(25)}  ${String(tally.wrongPairs).padEnd(12)}  ${corrected.padEnd(16)}  ${seconds}`,
    );
  }
}
