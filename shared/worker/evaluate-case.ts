import type { JudgeDefinition } from '../judges/judge-definition.js';
import type { MetricValue } from '../schema/metric-value.js';
import { judgeCase, type JudgeBackend } from '../scoring/run-judges.js';
import type { ObjectStore } from '../ports/object-store.js';
import type { EvalCase } from '../schema/eval-case.js';
import type { CaseMessage } from '../schema/pipeline-messages.js';
import { rankingOf } from '../schema/compact-ranking.js';
import { parseStoredCase } from '../schema/stored-case.js';
import type { CaseResult } from '../schema/run-records.js';
import type { Engine } from '../engines/engine.js';
import { thresholdMetrics } from '../report/thresholds.js';
import { groundTruthMetrics } from '../metrics/ground-truth-metrics.js';
import { judgeQrelsMetrics } from '../scoring/judge-qrels-metrics.js';
import { humanVerdictMetrics } from '../scoring/human-verdict-metrics.js';
import type { JudgeBudget } from './judge-budget.js';
import { judgeCeilingOf } from './judge-ceiling.js';
import { reasonOf, recordAttemptError } from './attempt-error.js';
import { askLiveEngines, ENGINE_DEADLINE_MS } from './live-engines.js';
import type { RunConfig } from '../config/index.js';
import { knownManifest, runConfigOf } from '../run/stored-config.js';
import { runKeys } from '../run/run-identity.js';
import { deferralOf, type DeferCase } from './rate-limit-deferral.js';
import { recordWaitingCase } from '../batch/waiting-cases.js';
import { batchSettingsOf } from '../judge-client/batch/batch-settings.js';

/** The judges of a run and the backend that runs them, built from the run's config. */
export interface Judging {
  readonly backend: JudgeBackend;
  readonly judges: readonly JudgeDefinition[];
  /** The run's live engines (its config's `engines:`, matrix expanded), asked before judging. */
  readonly engines?: readonly Engine[];
  /** This worker's side of run.max_judge_cost; without it the ceiling is not enforced by this worker. */
  readonly budget?: JudgeBudget;
}

export interface WorkerDependencies {
  readonly store: ObjectStore;
  /** Judging for a run's config; implementations cache it per config hash. */
  judgingFor(config: RunConfig, configHash: string): Judging | Promise<Judging>;
  /** Sends a case again as a new, delayed message; without it a rate-limited case is retried as any transient failure. */
  readonly defer?: DeferCase;
}

/**
 * `retry`: a judge or engine failure that may pass on a later try. `deferred`:
 * the judge server's rate limit held the case's judgments until their
 * deadline, and the case was sent again as a new message
 * (rate-limit-deferral.ts); this delivery is over. `failed`: anything else
 * that stopped the case (the judge secret unreadable, the manifest missing,
 * an S3 error, a bug); it comes back through the queue too, in case it was
 * passing, and its reason is recorded either way.
 */
export type CaseOutcome =
  | { kind: 'done'; runId: string; caseId: string }
  /** Its judgments wait for answers from batch jobs (shared/batch/): recorded as waiting, it is sent again once they are answered. */
  | { kind: 'waiting'; runId: string; caseId: string; requests: number }
  | { kind: 'retry'; runId: string; caseId: string; error: string }
  | { kind: 'deferred'; runId: string; caseId: string; error: string; delaySeconds: number }
  | { kind: 'failed'; runId: string; caseId: string; error: string };

/** One delivery of a case message: SQS's message id and receive count name it. */
export interface Delivery {
  readonly messageId: string;
  readonly receiveCount: number;
  /** Milliseconds left in this invocation (Lambda's remaining time), when there is a limit. */
  readonly remainingMs?: number;
}

/** Time kept back from the engines for judging and writing the result. */
const ENGINE_MARGIN_MS = 30_000;
/** Time kept back from the judges for writing the result before the invocation ends. */
const RESULT_MARGIN_MS = 10_000;

/**
 * The judge worker's work on one case message: the ground-truth metrics of
 * every engine, then the configured judges, written to
 * `runs/<run>/results/<case>.json` under a deterministic key, written only when
 * no delivery of the case wrote it first: a message that came back while an
 * earlier delivery ran adds no second result, and its judge calls are kept
 * with those of retried deliveries (below).
 *
 * A judge failure that may pass later (rate limit, server error, timeout that
 * outlived the SDK's retries) returns `retry`: the handler fails the record,
 * the queue delivers it again, and after maxReceiveCount the failure recorder
 * writes the last error, kept in `runs/<run>/attempts/<case>.json`; the judge
 * usage of that delivery is kept under `runs/<run>/attempt-usage/`, so the
 * report counts calls that no result holds. A judge
 * that answers garbage is not transient: its metric gets an error_message and
 * the case completes. Any other error (the judge secret, the manifest, S3)
 * returns `failed` with its reason, recorded in the same place.
 *
 * With run.max_judge_cost, the case's judge usage is added to the worker's
 * spend (judge-budget.ts), and once the run's spend has passed the ceiling
 * a case is evaluated without its LLM judges and marked `judging_skipped`.
 */
export async function evaluateCaseMessage(dependencies: WorkerDependencies, message: CaseMessage, delivery: Delivery): Promise<CaseOutcome> {
  try {
    return await evaluate(dependencies, message, delivery);
  } catch (error) {
    return failed(dependencies.store, message, delivery, error);
  }
}

/**
 * A case stopped by a thrown error: its reason goes where the failure
 * recorder reads it, so the case's failure says why instead of nothing. A
 * store that refuses that too (the S3 error that stopped the case) leaves the
 * reason to the logs, with both errors.
 */
async function failed(store: ObjectStore, message: CaseMessage, delivery: Delivery, error: unknown): Promise<CaseOutcome> {
  let reason = reasonOf(error);
  try {
    await recordAttemptError(store, message.run_id, message.case_id, reason, delivery.receiveCount);
  } catch (recordError) {
    reason = `${reason} (and the reason could not be recorded for the failure recorder: ${reasonOf(recordError)})`;
  }
  return { kind: 'failed', runId: message.run_id, caseId: message.case_id, error: reason };
}

async function evaluate(dependencies: WorkerDependencies, message: CaseMessage, delivery: Delivery): Promise<CaseOutcome> {
  const { store } = dependencies;
  const manifest = await knownManifest(store, message.run_id);
  const stored = message.case ?? (await readClaimCheck(store, message.case_key as string));
  const config = runConfigOf(manifest);
  const judging = await dependencies.judgingFor(config, manifest.config_hash);
  let evalCase = stored;
  let engineMetrics: Record<string, Record<string, MetricValue>> = {};
  if (judging.engines !== undefined && judging.engines.length > 0) {
    const deadlineMs = Math.max(1_000, Math.min(ENGINE_DEADLINE_MS, (delivery.remainingMs ?? Number.POSITIVE_INFINITY) - ENGINE_MARGIN_MS));
    const step = await askLiveEngines(store, message.run_id, message.case_id, stored, judging.engines, deadlineMs);
    if (step.kind === 'retry') return retry(store, message, delivery, step.error, {});
    evalCase = step.evalCase;
    engineMetrics = step.metrics;
  }
  // Judgments still running when the invocation is about to end are cut, as transient failures, so the case comes back.
  const deadlineAt = delivery.remainingMs === undefined ? undefined : Date.now() + delivery.remainingMs - RESULT_MARGIN_MS;
  // A batch-judged run's ceiling is kept where its jobs are submitted, from the requests they hold (shared/batch/batch-ceiling.ts).
  const ceiling = judging.budget === undefined || batchSettingsOf(config.judge.batch) !== undefined ? undefined : judgeCeilingOf(manifest);
  const spending = judging.budget !== undefined && ceiling !== undefined ? { budget: judging.budget, ceiling } : undefined;
  // Past the run's cost ceiling a case is still evaluated, by its ground truth and its deterministic judges only.
  const skipJudging = message.skip_judges === 'max_judge_cost' || (spending !== undefined && (await spending.budget.reached(message.run_id)));
  const judges = skipJudging ? judging.judges.filter((judge) => judge.kind === 'deterministic') : judging.judges;
  const judgement = await judgeCase(judgedView(evalCase, config.run.judge_depth), {
    judges,
    backend: judging.backend,
    ndcgCutoffs: config.run.cutoffs,
    ...(deadlineAt === undefined ? {} : { deadlineAt }),
    runId: message.run_id,
    ...(message.judge_online === undefined ? {} : { batchOnline: true as const }),
  });
  if (spending !== undefined) await spending.budget.add(message.run_id, spending.ceiling, judgement.usage);
  if (judgement.awaitingBatch.length > 0) {
    // Whatever else failed on the way is judged again with the rest, once the batch jobs have answered.
    await recordWaitingCase(store, message, judgement.awaitingBatch);
    return { kind: 'waiting', runId: message.run_id, caseId: message.case_id, requests: judgement.awaitingBatch.length };
  }
  if (judgement.transient) {
    const error = firstError(judgement.engines) ?? 'a judge call failed and may succeed on a later try';
    const deferral = judgement.rateLimited && dependencies.defer !== undefined ? deferralOf(message) : undefined;
    const outcome = await retry(store, message, delivery, error, judgement.usage);
    if (deferral === undefined || dependencies.defer === undefined) return outcome;
    await dependencies.defer(deferral.message, deferral.delaySeconds);
    return { kind: 'deferred', runId: message.run_id, caseId: message.case_id, error, delaySeconds: deferral.delaySeconds };
  }
  const engines: Record<string, Record<string, MetricValue>> = {};
  for (const [engine, metrics] of Object.entries(engineMetrics)) engines[engine] = { ...metrics };
  // The relevance judges' values of the ground-truth metrics, with their grades as the qrels: what the report corrects the human means with.
  const judgeTwins = judgeQrelsMetrics(evalCase, judgement.engines, config.run.cutoffs);
  for (const [engine, output] of Object.entries(evalCase.engines)) {
    const judged = judgement.engines[engine] ?? {};
    // Last, a person's verdicts on the response (the dataset's human_verdicts), named to pair with the judges' ratings they correct.
    engines[engine] = { ...engines[engine], ...groundTruthMetrics(evalCase, output, config.run.cutoffs), ...judged, ...judgeTwins[engine], ...humanVerdictMetrics(output, judged, judging.judges) };
  }
  const { thresholds } = config;
  if (thresholds !== undefined) {
    for (const [engine, metrics] of Object.entries(engines)) Object.assign(metrics, thresholdMetrics(metrics, thresholds));
  }
  const result: CaseResult = {
    run_id: message.run_id,
    case_id: message.case_id,
    request_id: evalCase.request_id,
    request: evalCase.request,
    engines,
    skipped: skipJudging ? [...judgement.skipped, ...skippedByCeiling(judging.judges, evalCase)] : judgement.skipped,
    judge_usage: judgement.usage,
    outputs: outputRecords(evalCase, listDepthOf(config)),
    ...(skipJudging ? { judging_skipped: 'max_judge_cost' as const } : {}),
  };
  const { written } = await store.put(runKeys.result(message.run_id, message.case_id), JSON.stringify(result), { ifNoneMatch: true });
  // Another delivery of the case finished first (the message came back while this one ran): its result stands, and
  // this delivery's judge calls are counted as those of a delivery that ended in a retry are.
  if (!written) await recordAttemptUsage(store, message, delivery, judgement.usage);
  return { kind: 'done', runId: message.run_id, caseId: message.case_id };
}

/** Records the delivery's last error and judge usage, and sends the case back through the queue. */
async function retry(store: ObjectStore, message: CaseMessage, delivery: Delivery, error: string, usage: CaseResult['judge_usage']): Promise<CaseOutcome> {
  await recordAttemptError(store, message.run_id, message.case_id, error, delivery.receiveCount);
  await recordAttemptUsage(store, message, delivery, usage);
  return { kind: 'retry', runId: message.run_id, caseId: message.case_id, error };
}

/** The calls of a delivery whose result no case holds were made (and maybe paid): kept under its own key, so the report counts them too. */
async function recordAttemptUsage(store: ObjectStore, message: CaseMessage, delivery: Delivery, usage: CaseResult['judge_usage']): Promise<void> {
  const deliveryId = `${delivery.messageId}-${delivery.receiveCount}`;
  await store.put(runKeys.attemptUsage(message.run_id, message.case_id, deliveryId), JSON.stringify(usage));
}

/** The judges a case past the cost ceiling was not judged by, one entry per judge and engine. */
function skippedByCeiling(judges: readonly JudgeDefinition[], evalCase: EvalCase): CaseResult['skipped'] {
  const reason = "the run's judge spend passed run.max_judge_cost";
  return judges.filter((judge) => judge.kind !== 'deterministic').flatMap((judge) => Object.keys(evalCase.engines).map((engine) => ({ judge: judge.id, engine, reason })));
}

/**
 * What the judges see: each engine's list cut at `run.judge_depth`, as TREC
 * pools to a depth. The ground-truth metrics use the whole list.
 */
function judgedView(evalCase: EvalCase, depth: number): EvalCase {
  const engines = Object.fromEntries(
    Object.entries(evalCase.engines).map(([engine, output]) => [engine, { ...output, retrieved_context: output.retrieved_context.slice(0, depth) }]),
  );
  return { ...evalCase, engines };
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
  for (const label of evalCase.expected_retrieved_context ?? []) if (!humanGrades.has(label.doc_uri)) humanGrades.set(label.doc_uri, label.grade ?? 1);
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

function firstError(engines: Record<string, Record<string, MetricValue>>): string | undefined {
  for (const metrics of Object.values(engines)) {
    for (const [name, value] of Object.entries(metrics)) {
      if (name.endsWith('/error_message') && typeof value === 'string') return value;
    }
  }
  return undefined;
}

/** The manifest of a run; a message for a run without one is a bug or a poison message, and throws. */

async function readClaimCheck(store: ObjectStore, key: string): Promise<EvalCase> {
  const bytes = await store.get(key);
  if (bytes === undefined) throw new Error(`The claim-checked case ${key} is missing`);
  return parseStoredCase(JSON.parse(new TextDecoder().decode(bytes)));
}
