import type { BatchRequest } from '../schema/batch-request.js';
import { documentRecall } from '../metrics/document-recall.js';
import type { EngineOutput, EvalCase } from '../schema/eval-case.js';
import { CaseJudgments, type JudgeBackend } from './case-judgments.js';
import { chunkVerdictMetrics } from './chunk-metrics.js';
import type { DagJudge } from '../judges/dag/dag-judge.js';
import { ensembleMetrics } from './ensemble-metrics.js';
import type { EnsembleJudge } from '../judges/ensemble/ensemble-judge.js';
import type { JudgeDefinition, LlmJudge } from '../judges/judge-definition.js';
import type { JudgeUsage } from './judge-usage-tally.js';
import type { MetricValue } from '../schema/metric-value.js';
import { repeatedMetrics } from './repeat-metrics.js';
import { wholeVerdictMetrics } from './whole-verdict-metrics.js';

export { inputsOf, type JudgeBackend } from './case-judgments.js';

/**
 * Judges one case: every configured judge, for every engine of the case, and
 * the metrics that derive from the verdicts, named as Databricks Agent
 * Evaluation names them (`response/llm_judged/<id>/rating`,
 * `retrieval/llm_judged/<id>/ratings`, ...). With the lexical backend the
 * source segment is `lexical`, so a non-LLM number is never mistaken for a
 * judged one. A repeated judge adds its samples and their spread
 * (repeat-metrics.ts); an ensemble combines its members' judgments, which
 * are asked once for both (ensemble-metrics.ts).
 *
 * Nothing is dropped: a judge that fails leaves an error_message where its
 * rating would be, and a judge that cannot run for lack of an input is listed
 * in `skipped` with the reason.
 */

export interface CaseJudgment {
  readonly engines: Record<string, Record<string, MetricValue>>;
  readonly skipped: { judge: string; engine: string; reason: string }[];
  /** What judging this case cost, per judge: a cached judgment counts as a cache hit, a pooled one once. */
  readonly usage: Record<string, JudgeUsage>;
  /** Some judgment failed in a way that may pass on a later try (rate limit, server error, timeout). */
  readonly transient: boolean;
  /** Each such failure was a judgment that the judge server's rate limit held until its deadline. */
  readonly rateLimited: boolean;
  /** Requests whose answers from batch jobs some judgment waits for: the case waits with them, and is judged again once they are answered. */
  readonly awaitingBatch: readonly BatchRequest[];
}

export interface JudgeRunOptions {
  readonly judges: readonly JudgeDefinition[];
  readonly backend: JudgeBackend;
  /** Cutoffs of the NDCG derived from graded chunk verdicts. */
  readonly ndcgCutoffs?: readonly number[];
  /**
   * Epoch milliseconds by which every judgment of the case must be over (a
   * worker's remaining time minus a margin); a judgment still running then
   * stops as a transient failure, so the case goes back through the queue.
   */
  readonly deadlineAt?: number;
  /** The run of the case, for judges answered by batch jobs. */
  readonly runId?: string;
  /** A batch-judged case whose round is judged online where no job answered (below the provider's minimum a job). */
  readonly batchOnline?: true;
  /** A batch-judged case of a run whose cost ceiling was reached: no judgment falls back to an online call. */
  readonly batchOnlineRefused?: true;
  /** Every judgment is made afresh, past the judge cache (a canary case's). */
  readonly uncached?: true;
}

export async function judgeCase(evalCase: EvalCase, options: JudgeRunOptions): Promise<CaseJudgment> {
  const judgment: CaseJudgment = { engines: {}, skipped: [], usage: {}, transient: false, rateLimited: false, awaitingBatch: [] };
  const caseJudgments = new CaseJudgments(evalCase, {
    backend: options.backend,
    deadlineAt: options.deadlineAt,
    runId: options.runId,
    batchOnline: options.batchOnline,
    batchOnlineRefused: options.batchOnlineRefused,
    uncached: options.uncached,
  });
  const engines = Object.entries(evalCase.engines);
  for (const [engine] of engines) judgment.engines[engine] = {};
  const byId = new Map(options.judges.map((judge) => [judge.id, judge]));
  await Promise.all(
    options.judges.flatMap((judge) => {
      if (judge.kind === 'deterministic') {
        for (const [engine, output] of engines) applyDeterministic(judge.id, evalCase, engine, output, judgment);
        return [];
      }
      return engines.map(([engine]) =>
        judge.kind === 'ensemble'
          ? reportEnsemble(judge, byId, engine, caseJudgments, options, judgment)
          : reportJudge(judge, engine, caseJudgments, options, judgment),
      );
    }),
  );
  Object.assign(judgment.usage, caseJudgments.usage);
  return {
    ...judgment,
    transient: caseJudgments.transient,
    rateLimited: caseJudgments.transient && caseJudgments.onlyRateLimited,
    awaitingBatch: [...caseJudgments.awaitingBatch.values()],
  };
}

function prefixOf(judge: JudgeDefinition, backend: JudgeBackend): string {
  return `${judge.scope}/${backend.kind === 'llm' ? 'llm_judged' : 'lexical'}/${judge.id}`;
}

async function reportJudge(
  judge: LlmJudge | DagJudge,
  engine: string,
  judgments: CaseJudgments,
  options: JudgeRunOptions,
  judgment: CaseJudgment,
): Promise<void> {
  const repeat = options.backend.kind === 'llm' ? (judge.repeat ?? 1) : 1;
  const samples = await Promise.all(Array.from({ length: repeat }, (_, sample) => judgments.of(judge, engine, sample)));
  const [first] = samples;
  if (first === undefined) return;
  if ('skipped' in first) return void judgment.skipped.push({ judge: judge.id, engine, reason: first.skipped });
  const prefix = prefixOf(judge, options.backend);
  const cutoffs = options.ndcgCutoffs ?? [5, 10];
  let metrics: Record<string, MetricValue>;
  if (repeat > 1) metrics = repeatedMetrics(prefix, judge, samples, cutoffs);
  else if ('chunks' in first) metrics = chunkVerdictMetrics(prefix, judge.scale, first.chunks, cutoffs);
  else metrics = wholeVerdictMetrics(prefix, first.whole);
  Object.assign(judgment.engines[engine] as object, metrics);
}

async function reportEnsemble(
  ensemble: EnsembleJudge,
  byId: ReadonlyMap<string, JudgeDefinition>,
  engine: string,
  judgments: CaseJudgments,
  options: JudgeRunOptions,
  judgment: CaseJudgment,
): Promise<void> {
  const members = ensemble.members.map((id) => {
    const member = byId.get(id);
    if (member === undefined || (member.kind !== 'llm' && member.kind !== 'dag'))
      throw new Error(
        `Member ${id} of ensemble ${ensemble.id} is not among the run's judges: the judges were not selected from the config`,
      );
    return member;
  });
  const outcomes = await Promise.all(members.map((member) => judgments.of(member, engine, 0)));
  const result = ensembleMetrics(prefixOf(ensemble, options.backend), ensemble, outcomes, options.ndcgCutoffs ?? [5, 10]);
  if ('skipped' in result) return void judgment.skipped.push({ judge: ensemble.id, engine, reason: result.skipped });
  Object.assign(judgment.engines[engine] as object, result.metrics);
}

function applyDeterministic(id: string, evalCase: EvalCase, engine: string, output: EngineOutput, judgment: CaseJudgment): void {
  if (id !== 'document_recall') throw new Error(`Unknown deterministic judge ${id}`);
  const expected = (evalCase.expected_retrieved_context ?? []).filter((document) => (document.grade ?? 1) >= 1);
  const value = documentRecall(
    output.retrieved_context.map((chunk) => chunk.doc_uri),
    expected.map((document) => document.doc_uri),
  );
  if (value === undefined) {
    judgment.skipped.push({ judge: id, engine, reason: 'the case has no expected_retrieved_context' });
    return;
  }
  (judgment.engines[engine] as Record<string, MetricValue>)['retrieval/ground_truth/document_recall'] = value;
}
