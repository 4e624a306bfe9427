import type { RunConfig } from '../config/index.js';
import type { JudgeDefinition } from '../judges/judge-definition.js';
import { groundTruthMetrics } from '../metrics/ground-truth-metrics.js';
import { thresholdMetrics } from '../report/thresholds.js';
import { rankingOf } from '../schema/compact-ranking.js';
import type { EvalCase } from '../schema/eval-case.js';
import type { MetricValue } from '../schema/metric-value.js';
import type { CaseMessage } from '../schema/pipeline-messages.js';
import type { CaseResult } from '../schema/run-records.js';
import { humanVerdictMetrics } from '../scoring/human-verdict-metrics.js';
import { judgeQrelsMetrics } from '../scoring/judge-qrels-metrics.js';
import type { CaseJudgment } from '../scoring/run-judges.js';

/** Per engine, metric name -> value. */
export type EngineMetrics = Record<string, Record<string, MetricValue>>;

/**
 * Each engine's metrics in one record, later ones winning a name: the live
 * engine's own (its answer's), the ground-truth metrics, the judges', the
 * relevance judges' values of the ground-truth metrics, and a person's
 * verdicts on the response; then, with `thresholds`, whether each passed.
 */
export function caseMetrics(
  evalCase: EvalCase,
  engineMetrics: EngineMetrics,
  judgment: CaseJudgment,
  config: RunConfig,
  judges: readonly JudgeDefinition[],
): EngineMetrics {
  const engines: EngineMetrics = {};
  for (const [engine, metrics] of Object.entries(engineMetrics)) engines[engine] = { ...metrics };
  // The relevance judges' values of the ground-truth metrics, with their grades as the qrels: what the report corrects the human means with.
  const judgeTwins = judgeQrelsMetrics(evalCase, judgment.engines, config.run.cutoffs);
  for (const [engine, output] of Object.entries(evalCase.engines)) {
    const judged = judgment.engines[engine] ?? {};
    // Last, a person's verdicts on the response (the dataset's human_verdicts), named to pair with the judges' ratings they correct.
    engines[engine] = {
      ...engines[engine],
      ...groundTruthMetrics(evalCase, output, config.run.cutoffs),
      ...judged,
      ...judgeTwins[engine],
      ...humanVerdictMetrics(output, judged, judges),
    };
  }
  const { thresholds } = config;
  if (thresholds !== undefined) {
    for (const metrics of Object.values(engines)) Object.assign(metrics, thresholdMetrics(metrics, thresholds));
  }
  return engines;
}

/**
 * The record of an evaluated case: its metrics, the judges that could not
 * run and why (every LLM judge, once past run.max_judge_cost), the judge
 * usage, and each engine's list and response.
 */
export function caseResult(
  message: CaseMessage,
  evalCase: EvalCase,
  engines: EngineMetrics,
  judgment: CaseJudgment,
  settings: { readonly config: RunConfig; readonly judges: readonly JudgeDefinition[]; readonly skipJudging: boolean },
): CaseResult {
  const { config, judges, skipJudging } = settings;
  return {
    run_id: message.run_id,
    case_id: message.case_id,
    request_id: evalCase.request_id,
    request: evalCase.request,
    engines,
    skipped: skipJudging ? [...judgment.skipped, ...skippedByCeiling(judges, evalCase)] : judgment.skipped,
    judge_usage: judgment.usage,
    outputs: outputRecords(evalCase, listDepthOf(config)),
    ...(skipJudging ? { judging_skipped: 'max_judge_cost' as const } : {}),
  };
}

/** The judges a case past the cost ceiling was not judged by, one entry per judge and engine. */
function skippedByCeiling(judges: readonly JudgeDefinition[], evalCase: EvalCase): CaseResult['skipped'] {
  const reason = "the run's judge spend passed run.max_judge_cost";
  return judges
    .filter((judge) => judge.kind !== 'deterministic')
    .flatMap((judge) => Object.keys(evalCase.engines).map((engine) => ({ judge: judge.id, engine, reason })));
}

/**
 * Each engine's ranked list (doc_uri, rank, score) down to `depth` and its
 * response, for cases.jsonl, with the human grade of every labelled document,
 * so the report can set the judges' grades against the human's
 * (shared/report/judge-agreement.ts).
 */
function outputRecords(evalCase: EvalCase, depth: number): NonNullable<CaseResult['outputs']> {
  const humanGrades = new Map<string, number>();
  // The first label of a document counts, as for the ground-truth metrics.
  for (const label of evalCase.expected_retrieved_context ?? [])
    if (!humanGrades.has(label.doc_uri)) humanGrades.set(label.doc_uri, label.grade ?? 1);
  return Object.fromEntries(
    Object.entries(evalCase.engines).map(([engine, output]) => {
      const response = output.response === undefined ? {} : { response: output.response };
      // Straight to columns: a sweep's case holds thousands of documents per engine.
      const listed = output.retrieved_context.slice(0, depth);
      const ranking = rankingOf(listed, (documentId) => humanGrades.get(documentId));
      if (ranking !== undefined) return [engine, { ranking, ...response }];
      const ranked = listed.map((chunk) => {
        const humanGrade = humanGrades.get(chunk.doc_uri);
        return {
          doc_uri: chunk.doc_uri,
          rank: chunk.rank,
          ...(chunk.score === undefined ? {} : { score: chunk.score }),
          ...(humanGrade === undefined ? {} : { human_grade: humanGrade }),
        };
      });
      return [engine, { retrieved: ranked, ...response }];
    }),
  );
}

/** How deep each engine's list is kept in the result: run.list_depth, and never less than the judges read. */
function listDepthOf(config: RunConfig): number {
  return Math.max(config.run.list_depth, config.run.judge_depth);
}
