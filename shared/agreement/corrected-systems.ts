import type { Measure, MeasureOptions } from '../metrics/registry.js';
import type { CorrectedRunDifference, CorrectedRunEstimate } from '../schema/agreement.js';
import type { CorrectedEstimate } from '../schema/report.js';
import { correctedEstimate, type CorrectionSettings } from '../statistics/corrected-estimate.js';
import { addCase, emptyPairedSums, type PairedSums, type Population } from '../statistics/prediction-powered-mean.js';
import { evaluateRun } from '../trec/evaluate.js';
import type { Qrels } from '../trec/qrels.js';
import type { NamedRun } from './system-agreement.js';
import type { Result } from '../schema/result.js';

/** The corrected estimates of each run, and of each pair of runs' difference. */
export interface CorrectedSystems {
  readonly estimates: CorrectedRunEstimate[];
  readonly differences: CorrectedRunDifference[];
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
 * counted in topics.
 */
export function correctedSystems(
  runs: readonly NamedRun[],
  qrels: { human: Qrels; judge: Qrels },
  measures: readonly Measure[],
  options: MeasureOptions,
  correction: CorrectionSettings,
): Result<CorrectedSystems> {
  const estimates: CorrectedRunEstimate[] = [];
  const differences: CorrectedRunDifference[] = [];
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
  }
  return { ok: true, value: { estimates, differences } };
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
