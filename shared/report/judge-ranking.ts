import { rankByCost, rankJudges, type JudgeCandidate } from '../agreement/judge-choice.js';
import type { Report } from '../schema/report.js';
import { compareText } from './ordering.js';

/**
 * A run with two relevance judges or more (model variants such as
 * `graded_relevance@gpt-4o-mini` and `graded_relevance@gpt-4o`, say) and
 * human labels: the judges ranked by the corrected interval each gives one
 * ground-truth metric over the run's engines, and by the human labels that
 * buys per unit of the judge's cost (shared/agreement/judge-choice.ts), with
 * each judge's kappa and cost from the report itself. The metric is nDCG@10
 * when two judges correct it, else the first by the order below that two
 * judges correct (average precision, say, for a graded and a yes/no judge).
 */

/** The ground-truth metrics a ranking of judges is made on, most preferred first. */
const PREFERRED = [
  /^retrieval\/ground_truth\/ndcg@10$/,
  /^retrieval\/ground_truth\/ndcg@\d+$/,
  /^retrieval\/ground_truth\/average_precision$/,
  /./,
];

export function withJudgeRanking(report: Report): Report {
  const corrected = report.corrected ?? {};
  const metrics = [...new Set(Object.values(corrected).flatMap((byMetric) => Object.keys(byMetric)))].sort(compareText);
  const judgesOf = (metric: string): string[] =>
    [...new Set(Object.values(corrected).flatMap((byMetric) => Object.keys(byMetric[metric] ?? {})))].sort(compareText);
  // The first metric, in the preferred order, that two judges or more correct (a yes/no judge corrects no NDCG).
  const metric = PREFERRED.map((pattern) => metrics.find((name) => pattern.test(name) && judgesOf(name).length >= 2)).find(
    (name) => name !== undefined,
  );
  if (metric === undefined) return report;
  const judges = judgesOf(metric);
  const candidates: JudgeCandidate[] = judges.map((judge) => ({
    name: judge,
    estimates: Object.keys(corrected)
      .sort(compareText)
      .flatMap((engine) => {
        const estimate = corrected[engine]?.[metric]?.[judge];
        if (estimate === undefined) return [];
        return [
          {
            labelled: estimate.labelled,
            all: estimate.cases,
            ...(estimate.human_only === undefined ? {} : { humanOnly: estimate.human_only }),
            ...(estimate.corrected === undefined ? {} : { corrected: estimate.corrected }),
            ...(estimate.bias === undefined ? {} : { bias: estimate.bias }),
          },
        ];
      }),
    kappa: report.agreement?.[judge]?.cohen_kappa ?? null,
    cost: report.judge_cost?.judges[judge]?.cost ?? null,
  }));
  const byWidth = rankJudges(candidates);
  const level = Object.values(corrected).flatMap((byMetric) =>
    Object.values(byMetric[metric] ?? {}).flatMap((estimate) => (estimate.level === undefined ? [] : [estimate.level])),
  )[0];
  return {
    ...report,
    judge_ranking: {
      metric,
      level: level ?? 0.95,
      currency: report.judge_cost?.currency ?? null,
      by_width: byWidth,
      by_cost: rankByCost(byWidth),
    },
  };
}
