import type { Measure, MeasureOptions } from '../metrics/registry.js';
import { addCase, correctedMean, emptyPairedSums, type PairedSums, type Population } from '../statistics/prediction-powered-mean.js';
import { evaluateRun } from '../trec/evaluate.js';
import type { Qrels } from '../trec/qrels.js';
import type { NamedRun } from './system-agreement.js';

/**
 * Each run's measures over the topics of a TREC collection, corrected by a
 * judge's qrels (shared/statistics/prediction-powered-mean.ts): the topics
 * the judge's qrels score the run on are the population, those the human
 * qrels score it on too are the labelled sample; the judge's value on every
 * topic and the human value on the labelled ones give the estimate of the
 * mean over all the topics, as if people had labelled them all. Topics only
 * the human qrels have are not part of it. Pairs of runs get the same over
 * their per-topic differences (a minus b), on the topics both runs are scored on.
 */
export interface CorrectedFields {
  readonly topics: number;
  readonly labelled_topics: number;
  /** What the interval is for: `finite` the mean over these topics (a run's estimate), `superpopulation` over every topic they stand for (a difference, as a significance test reads it). */
  readonly population: Population;
  readonly judge_only: { mean: number };
  readonly human_only?: { mean: number; low: number; high: number };
  readonly corrected?: { mean: number; low: number; high: number; weight: number };
  readonly bias?: number;
  readonly correlation?: number | null;
  /** Differences only: the two-sided p-value of no difference, from the corrected interval's t statistic. */
  readonly p_value?: number;
  /** The judge's mean on the labelled topics against the rest, with Welch's p-value: a low one says they are not a random sample. */
  readonly sample_check?: { labelled_judge_mean: number; unlabelled_judge_mean: number; p_value: number };
  /** Why there is no interval (too few labelled topics). */
  readonly reason?: string;
}

export interface RunEstimate extends CorrectedFields {
  readonly run: string;
  readonly measure: string;
}

export interface RunDifference extends CorrectedFields {
  readonly runs: readonly [string, string];
  readonly measure: string;
}

export interface CorrectionOptions {
  readonly level: number;
  readonly minLabelled: number;
}

export type CorrectedSystems = { ok: true; estimates: RunEstimate[]; differences: RunDifference[] } | { ok: false; error: string };

export function correctedSystems(
  runs: readonly NamedRun[],
  qrels: { human: Qrels; judge: Qrels },
  measures: readonly Measure[],
  options: MeasureOptions,
  correction: CorrectionOptions,
): CorrectedSystems {
  const estimates: RunEstimate[] = [];
  const differences: RunDifference[] = [];
  for (const measure of measures) {
    const scored: { judge: Map<string, number>; human: Map<string, number> }[] = [];
    for (const { name, run } of runs) {
      const perLabels = { judge: new Map<string, number>(), human: new Map<string, number>() };
      for (const labels of ['judge', 'human'] as const) {
        const result = evaluateRun(qrels[labels], run, [{ kind: 'query', measure }], { ...options, complete: false });
        if (!result.ok) return { ok: false, error: `Run ${name} against the ${labels} qrels: ${result.error}` };
        for (const topic of result.evaluation.perTopic) perLabels[labels].set(topic.topicId, topic.values[0]?.value as number);
      }
      scored.push(perLabels);
      estimates.push({
        run: name,
        measure: measure.trecName,
        ...fieldsOf(
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
          ...fieldsOf(sumsOver(judged, human), correction, 'superpopulation'),
        });
      }
    }
  }
  return { ok: true, estimates, differences };
}

/** Sums over the judge-scored topics, in topic order, each with its human value when it has one. */
function sumsOver(judge: ReadonlyMap<string, number>, human: (topic: string) => number | undefined): PairedSums {
  const sums = emptyPairedSums();
  for (const topic of [...judge.keys()].sort()) addCase(sums, judge.get(topic) as number, human(topic));
  return sums;
}

function fieldsOf(sums: PairedSums, correction: CorrectionOptions, population: Population): CorrectedFields {
  const base = {
    topics: sums.all,
    labelled_topics: sums.labelled,
    population,
    judge_only: { mean: sums.all === 0 ? 0 : sums.sumJudgeAll / sums.all },
  };
  if (sums.all === 0) return { ...base, reason: 'no topic is scored under the judge qrels' };
  const outcome = correctedMean(sums, { ...correction, population });
  if (!outcome.ok) return { ...base, reason: outcome.error.replace(/cases/g, 'topics') };
  const { humanOnly, corrected, bias, correlation } = outcome.value;
  return {
    ...base,
    human_only: { mean: humanOnly.mean, low: humanOnly.low, high: humanOnly.high },
    corrected: { mean: corrected.mean, low: corrected.low, high: corrected.high, weight: corrected.weight },
    bias,
    correlation,
    ...(population === 'superpopulation' ? { p_value: corrected.pValue } : {}),
    ...(outcome.value.sample === undefined
      ? {}
      : {
          sample_check: {
            labelled_judge_mean: outcome.value.sample.labelledJudgeMean,
            unlabelled_judge_mean: outcome.value.sample.unlabelledJudgeMean,
            p_value: outcome.value.sample.pValue,
          },
        }),
  };
}
