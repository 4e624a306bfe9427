import { z } from 'zod';
import { P_VALUE_ADJUSTMENTS } from '../shared/statistics/p-value-adjustment.js';
import { seededRandom } from '../shared/statistics/seeded-random.js';
import { simulatedNight, type PlantedDrop } from '../test/support/simulated-sweeps.js';
import { benchArgs, benchOptions, seed as seedOption, wholeNumber } from './bench-options.js';

/**
 * The regression gate on seeded simulated sweeps (test/support/simulated-sweeps.ts):
 * --engines × --metrics compared with the baseline over --cases cases, each
 * night's p-values adjusted by Holm's method, Benjamini-Hochberg's, or not at
 * all (shared/compare/adjusted-comparison.ts). With nothing planted, the
 * share of nights on which the gate reports a regression (its family-wise
 * false-positive rate, to hold at 0.05); then with drops planted in four of
 * the engine × metric tests, the share of those drops it finds (power) and
 * the nights on which it also flags an unchanged metric.
 *
 *   npm run bench:adjusted-gate -- [--nights 400] [--engines 8] [--metrics 5] [--cases 50] [--permutations 10000] [--seed 2026]
 */
const { values } = benchArgs('bench:adjusted-gate', {
  options: {
    nights: { type: 'string', default: '400' },
    engines: { type: 'string', default: '8' },
    metrics: { type: 'string', default: '5' },
    cases: { type: 'string', default: '50' },
    permutations: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '2026' },
  },
});
const options = benchOptions(
  'bench:adjusted-gate',
  z.object({
    nights: wholeNumber(1),
    engines: wholeNumber(1),
    metrics: wholeNumber(1),
    cases: wholeNumber(1),
    permutations: wholeNumber(1),
    seed: seedOption(),
  }),
  values,
);
const { nights, permutations, seed } = options;
const shape = { engines: options.engines, metrics: options.metrics, cases: options.cases };

/** Four planted drops of `drop`: engines 0 to 3, each on one metric. */
function plantedDrops(drop: number): PlantedDrop[] {
  return drop === 0
    ? []
    : Array.from({ length: Math.min(4, shape.engines) }, (_, engine) => ({ engine, metric: engine % shape.metrics, drop }));
}

const tests = shape.engines * shape.metrics;
console.log(
  `${nights} seeded nights (seed ${seed}) of ${shape.engines} engines × ${shape.metrics} metrics = ${tests} tests over ${shape.cases} cases, ` +
    `randomization test with ${permutations} sign flips, alpha 0.05`,
);
console.log('drop  method              nights with a false alarm   planted drops found   nights finding one   seconds');
for (const [scenario, drop] of [0, 0.03, 0.05, 0.08].entries()) {
  const planted = plantedDrops(drop);
  const random = seededRandom(seed + scenario);
  const tally = Object.fromEntries(P_VALUE_ADJUSTMENTS.map((method) => [method, { alarms: 0, found: 0, nightsFinding: 0 }]));
  const started = performance.now();
  for (let night = 0; night < nights; night++) {
    const outcomes = simulatedNight(shape, planted, random, { methods: P_VALUE_ADJUSTMENTS, permutations });
    for (const method of P_VALUE_ADJUSTMENTS) {
      const counts = tally[method] as { alarms: number; found: number; nightsFinding: number };
      counts.alarms += Number(outcomes[method].falseAlarms > 0);
      counts.found += outcomes[method].found;
      counts.nightsFinding += Number(outcomes[method].found > 0);
    }
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  for (const method of P_VALUE_ADJUSTMENTS) {
    const counts = tally[method] as { alarms: number; found: number; nightsFinding: number };
    const found =
      planted.length === 0 ? '-' : `${counts.found}/${nights * planted.length} (${share(counts.found, nights * planted.length)})`;
    const finding = planted.length === 0 ? '-' : share(counts.nightsFinding, nights);
    console.log(
      `${drop.toFixed(2)}  ${method.padEnd(18)}  ${`${counts.alarms}/${nights} (${share(counts.alarms, nights)})`.padEnd(26)}  ${found.padEnd(20)}  ${finding.padEnd(19)}  ${seconds}`,
    );
  }
}

function share(count: number, total: number): string {
  return `${((100 * count) / total).toFixed(1)}%`;
}
