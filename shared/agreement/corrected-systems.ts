import type { Measure, MeasureOptions } from '../metrics/registry.js';
import type { CorrectedRunDifference, CorrectedRunEstimate } from '../schema/agreement.js';
import type { CorrectedEstimate } from '../schema/report.js';
import { correctedEstimate, type CorrectionSettings } from '../statistics/corrected-estimate.js';
import { addCase, emptyPairedSums, type PairedSums, type Population } from '../statistics/prediction-powered-mean.js';
import { evaluateRun } from '../trec/evaluate.js';
import type { Qrels } from '../trec/qrels.js';
import type { NamedRun } from './system-agreement.js';
import type { Leaderboard } from '../schema/leaderboard.js';
import { DEFAULT_LEADERBOARD_ADJUSTMENT, type PValueAdjustmentMethod } from '../schema/p-value-adjustment.js';
import type { Result } from '../schema/result.js';
import { alphaOfLevel, LEADERBOARD_SYSTEMS, LeaderboardTally } from '../statistics/leaderboard.js';

/** The corrected estimates of each run, and of each pair of runs' difference; with three runs or more, each measure's leaderboard. */
export interface CorrectedSystems {
  readonly estimates: CorrectedRunEstimate[];
  readonly differences: CorrectedRunDifference[];
  readonly leaderboards: Leaderboard[];
}

/**
 * Each run's measures over the topics of a TREC collection, corrected by a
 * judge's qrels (shared/statistics/prediction-powered-mean.ts): the topics
 * the judge's qrels score the run on are the population, those the human
 * qrels score it on too are the labelled sample; the judge's value on every
 * topic and the human value on the labelled ones give the estimate of the
 * mean over all the topics, as if people had labelled them all. Topics only
 * the human qrels have are not part of it. Pairs of runs get the same over
 * their per-topic differences (a minus b), on the topics both runs are scored
 * on. Both are the corrected estimate's one shape (shared/schema/report.ts),
 * counted in topics. With three runs or more, each measure's leaderboard
 * (shared/statistics/leaderboard.ts): the runs ranked by their corrected
 * means, every pair tested by its corrected difference, the p-values
 * adjusted across the pairs by `leaderboard.method`, alpha 1 − the level.
 */
export function correctedSystems(
  runs: readonly NamedRun[],
  qrels: { human: Qrels; judge: Qrels },
  measures: readonly Measure[],
  options: MeasureOptions,
  correction: CorrectionSettings,
  leaderboard: { readonly judge: string; readonly method: PValueAdjustmentMethod } = {
    judge: 'judge',
    method: DEFAULT_LEADERBOARD_ADJUSTMENT,
  },
): Result<CorrectedSystems> {
  const estimates: CorrectedRunEstimate[] = [];
  const differences: CorrectedRunDifference[] = [];
  const leaderboards: Leaderboard[] = [];
  for (const measure of measures) {
    const scored: { judge: Map<string, number>; human: Map<string, number> }[] = [];
    for (const { name, run } of runs) {
      const perLabels = { judge: new Map<string, number>(), human: new Map<string, number>() };
      for (const labels of ['judge', 'human'] as const) {
        const result = evaluateRun(qrels[labels], run, [{ kind: 'query', measure }], { ...options, complete: false });
        if (!result.ok) return { ok: false, error: `Run ${name} against the ${labels} qrels: ${result.error}` };
        for (const topic of result.value.perTopic) perLabels[labels].set(topic.topicId, topic.values[0]?.value as number);
      }
      scored.push(perLabels);
      estimates.push({
        run: name,
        measure: measure.trecName,
        ...topicsEstimate(
          sumsOver(perLabels.judge, (topic) => perLabels.human.get(topic)),
          correction,
          'finite',
        ),
      });
    }
    for (let left = 0; left < runs.length; left++) {
      for (let right = left + 1; right < runs.length; right++) {
        const [a, b] = [scored[left], scored[right]] as [(typeof scored)[number], (typeof scored)[number]];
        const judged = new Map(
          [...a.judge].flatMap(([topic, value]) => (b.judge.has(topic) ? [[topic, value - (b.judge.get(topic) as number)] as const] : [])),
        );
        const human = (topic: string): number | undefined => {
          const [first, second] = [a.human.get(topic), b.human.get(topic)];
          return first === undefined || second === undefined ? undefined : first - second;
        };
        differences.push({
          runs: [runs[left]?.name ?? '', runs[right]?.name ?? ''],
          measure: measure.trecName,
          ...topicsEstimate(sumsOver(judged, human), correction, 'superpopulation'),
        });
      }
    }
    if (runs.length >= LEADERBOARD_SYSTEMS) leaderboards.push(measureLeaderboard(runs, scored, measure.trecName, correction, leaderboard));
  }
  return { ok: true, value: { estimates, differences, leaderboards } };
}

/** The runs ranked on one measure, from each topic the judge's qrels score, in topic order, with its human value where it has one. */
function measureLeaderboard(
  runs: readonly NamedRun[],
  scored: readonly { judge: ReadonlyMap<string, number>; human: ReadonlyMap<string, number> }[],
  measure: string,
  correction: CorrectionSettings,
  leaderboard: { readonly judge: string; readonly method: PValueAdjustmentMethod },
): Leaderboard {
  const tally = new LeaderboardTally(
    runs.map((run) => run.name),
    'corrected',
  );
  const topics = [...new Set(scored.flatMap((perLabels) => [...perLabels.judge.keys()]))].sort();
  for (const topic of topics)
    tally.add(scored.map((perLabels) => ({ judge: perLabels.judge.get(topic), human: perLabels.human.get(topic) })));
  return tally.leaderboard({ metric: measure, unit: 'topics', ...correction, alpha: alphaOfLevel(correction.level), ...leaderboard });
}

/** Sums over the judge-scored topics, in topic order, each with its human value when it has one. */
function sumsOver(judge: ReadonlyMap<string, number>, human: (topic: string) => number | undefined): PairedSums {
  const sums = emptyPairedSums();
  for (const topic of [...judge.keys()].sort()) addCase(sums, judge.get(topic) as number, human(topic));
  return sums;
}

/** An estimate in topics, with the judge's mean beside the reason when there is no interval, as the table prints it. */
function topicsEstimate(sums: PairedSums, correction: CorrectionSettings, population: Population): CorrectedEstimate {
  return correctedEstimate(sums, { ...correction, population, unit: 'topics', judgeMeanWithoutInterval: true });
}
