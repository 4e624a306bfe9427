import { z } from 'zod';
import { simulateNights, type SimulatedNights } from '../test/support/simulated-canary.js';
import { benchArgs, benchOptions, wholeNumber } from './bench-options.js';

/**
 * How often the judge canary's tests flag a night on which the judge did not
 * change, and how often they catch one on which it did, over simulated
 * nights (test/support/simulated-canary.ts): a canary of --requests requests
 * with four documents each, judged by a yes/no judge and a graded one that
 * get 10% of the documents wrong every night and turn --noise of them more
 * each night; every fourth night the judge is changed, a share of its yes
 * verdicts (and grades of 2 and up) turned down. Each of --suites suites
 * compares --nights nights with its first night (a fixed baseline), at the
 * default level 0.05.
 *
 *   npm run bench:canaries -- [--suites 20] [--nights 100] [--requests 30]
 */
const { values } = benchArgs('bench:canaries', {
  options: {
    suites: { type: 'string', default: '20' },
    nights: { type: 'string', default: '100' },
    requests: { type: 'string', default: '30' },
  },
});
// Every fourth night is changed: fewer than four have none to catch.
const { suites, nights, requests } = benchOptions(
  'bench:canaries',
  z.object({ suites: wholeNumber(1), nights: wholeNumber(4), requests: wholeNumber(1) }),
  values,
);

const started = process.cpuUsage();
console.log(`${suites} suites × ${nights} nights, ${requests * 4} canary documents, level 0.05; every fourth night changed`);
console.log('noise  changed share  false flags (unchanged nights)  caught (changed nights)');
for (const noise of [0.02, 0.05, 0.1]) {
  for (const changeShare of [0.1, 0.2, 0.4]) {
    const totals: { -readonly [Key in keyof SimulatedNights]: number } = { falseFlags: 0, unchangedNights: 0, caught: 0, changedNights: 0 };
    for (let seed = 1; seed <= suites; seed++) {
      const suite = simulateNights({ requests, mistakes: 0.1, noise }, { nights, changeShare, changeEvery: 4, alpha: 0.05, seed });
      totals.falseFlags += suite.falseFlags;
      totals.unchangedNights += suite.unchangedNights;
      totals.caught += suite.caught;
      totals.changedNights += suite.changedNights;
    }
    const rate = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}% (${part} of ${whole})`;
    console.log(
      `${noise.toFixed(2).padEnd(5)}  ${changeShare.toFixed(1).padEnd(13)}  ${rate(totals.falseFlags, totals.unchangedNights).padEnd(30)}  ${rate(totals.caught, totals.changedNights)}`,
    );
  }
}
const used = process.cpuUsage(started);
console.log(`CPU: ${((used.user + used.system) / 1e6).toFixed(1)} s`);
