import { canarySection } from '../../shared/canaries/canary-section.js';
import type { CanaryReport } from '../../shared/schema/canary-report.js';
import type { CaseLine } from '../../shared/schema/report.js';
import { seededRandom } from '../../shared/statistics/seeded-random.js';

/**
 * Nights of a canary without the pipeline: the canary's lines as a judge of
 * the drifting kind (drifting-judge.ts) would leave them, for many more
 * nights than the built CLI can run in a test. Each of `requests` requests
 * has four documents, two relevant (human grade 2) and two not (0); the
 * judge gets a fixed share of them wrong every night (`mistakes`), turns
 * another share each night (`noise`), and, on a changed night, turns a share
 * of its yes verdicts (and grades above 0) down (`change`). A yes/no judge
 * and a graded one judge every document.
 */
export interface CanaryModel {
  readonly requests: number;
  readonly mistakes: number;
  readonly noise: number;
}

export interface SimulatedNights {
  /** Nights without a change that flagged a judge changed, of those nights. */
  readonly falseFlags: number;
  readonly unchangedNights: number;
  /** Changed nights that flagged the yes/no judge, of those nights. */
  readonly caught: number;
  readonly changedNights: number;
}

/**
 * `nights` nights against the first (the suite's baseline), every
 * `changeEvery`-th one changed (0: none), with the level `alpha`: how many
 * unchanged nights were flagged, and how many changed ones were caught.
 */
export function simulateNights(
  model: CanaryModel,
  options: { nights: number; changeShare: number; changeEvery: number; alpha: number; seed: number },
): SimulatedNights {
  const bias = draws(model.requests * 4, options.seed);
  const baseline = canarySection(nightRun(canaryNight(model, bias, 0, 0, options.seed), undefined, options.alpha));
  let falseFlags = 0;
  let unchangedNights = 0;
  let caught = 0;
  let changedNights = 0;
  for (let night = 1; night <= options.nights; night++) {
    const changed = options.changeEvery > 0 && night % options.changeEvery === 0;
    const lines = canaryNight(model, bias, night, changed ? options.changeShare : 0, options.seed);
    const section = canarySection(nightRun(lines, baseline, options.alpha));
    if (changed) {
      changedNights++;
      if (section.judges.chunk_relevance?.changed === true) caught++;
    } else {
      unchangedNights++;
      if (section.changed_judges.length > 0) falseFlags++;
    }
  }
  return { falseFlags, unchangedNights, caught, changedNights };
}

/** One uniform number in [0, 1) per item, from the seed. */
function draws(count: number, seed: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => random.nextUint32() / 2 ** 32);
}

function canaryNight(model: CanaryModel, bias: readonly number[], night: number, changeShare: number, seed: number): CaseLine[] {
  const noise = draws(bias.length * 2, seed * 7919 + night + 1);
  const change = draws(bias.length, seed * 104_729 + night + 1);
  const grade = (index: number, judge: 0 | 1): number => {
    let value = (index % 4 < 2 ? 2 : 0) + ((bias[index] as number) * 7 < 3.5 ? 1 : 0);
    if ((bias[index] as number) < model.mistakes) value = 3 - value;
    if ((noise[index * 2 + judge] as number) < model.noise) value = 3 - value;
    if ((change[index] as number) < changeShare) value = Math.max(0, value - 2);
    return value;
  };
  return Array.from({ length: model.requests }, (_, request) =>
    canaryLine(
      request,
      (index) => (grade(index, 0) >= 2 ? 'yes' : 'no'),
      (index) => grade(index, 1),
    ),
  );
}

/**
 * Request `request`'s line of a canary whose documents 4·request to
 * 4·request + 3 the yes/no judge and the graded judge rated so; the first two
 * of each request are relevant (human grade 2), the others not (0).
 */
export function canaryLine(request: number, yesNo: (index: number) => 'yes' | 'no', graded: (index: number) => number): CaseLine {
  const indices = [0, 1, 2, 3].map((document) => request * 4 + document);
  return {
    case_id: `canary~c${request}`,
    request_id: `c${request}`,
    engine: 'search',
    metrics: {
      'retrieval/llm_judged/chunk_relevance/ratings': indices.map(yesNo),
      'retrieval/llm_judged/graded_relevance/ratings': indices.map(graded),
    },
    retrieved: indices.map((index, rank) => ({ doc_uri: `d${index}`, rank: rank + 1, human_grade: index % 4 < 2 ? 2 : 0 })),
  };
}

function nightRun(lines: CaseLine[], baseline: CanaryReport | undefined, alpha: number) {
  return {
    canary: { key: 'canaries/nightly/canary.jsonl', cases: lines.length, input_errors: 0 },
    alpha,
    lines,
    usage: {},
    cases: { total: lines.length, evaluated: lines.length, failed: 0, missing: 0 },
    comparedWith: baseline === undefined ? undefined : { runId: 'r-0000000000000000', canaries: baseline },
    regressions: [],
  };
}
