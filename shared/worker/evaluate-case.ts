import type { JudgeDefinition } from '../judges/judge-definition.js';
import type { MetricValue } from '../schema/metric-value.js';
import { judgeCase, type CaseJudgment, type JudgeBackend } from '../scoring/run-judges.js';
import { fullDiskOf } from '../ports/full-disk.js';
import type { ObjectStore } from '../ports/object-store.js';
import type { EvalCase } from '../schema/eval-case.js';
import type { CaseMessage } from '../schema/pipeline-messages.js';
import { parseJsonWith } from '../schema/parse-json-with.js';
import { expandStoredCase, storedCaseSchema } from '../schema/stored-case.js';
import type { CaseResult, Manifest } from '../schema/run-records.js';
import type { Engine } from '../engines/engine.js';
import type { JudgeBudget } from './judge-budget.js';
import { judgeCeilingOf, type JudgeCeiling } from '../run/judge-spend.js';
import { reasonOf, recordAttemptError } from './attempt-error.js';
import { askLiveEngines, ENGINE_DEADLINE_MS, type LiveEngineStep } from './live-engines.js';
import { caseMetrics, caseResult } from './case-result.js';
import type { RunConfig } from '../config/index.js';
import { knownManifest, runConfigOf } from '../run/stored-config.js';
import { runKeys } from '../run/run-identity.js';
import { deferralOf, type DeferCase } from './rate-limit-deferral.js';
import { recordWaitingCase } from '../batch-judging/waiting-cases.js';
import { batchSettingsOf } from '../judge-client/batch-settings.js';

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
  /** Its judgments wait for answers from batch jobs (shared/batch-judging/): recorded as waiting, it is sent again once they are answered. */
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
 * The judge worker's work on one case message, step by step:
 *
 * 1. the run: its manifest, the config stored in it, the judging built from
 *    that; and the case, carried in the message or read from its claim check;
 * 2. the live engines, if the run has any, asked within the time the
 *    invocation leaves them (an engine failure that may pass returns `retry`);
 * 3. the configured judges, within the invocation's time. With
 *    run.max_judge_cost, the case's judge usage is added to the worker's
 *    spend (judge-budget.ts), and once the run's spend has passed the ceiling
 *    a case is evaluated without its LLM judges and marked `judging_skipped`;
 * 4. a case whose judgments wait for answers from batch jobs is recorded as
 *    `waiting`. A judge failure that may pass later (rate limit, server error,
 *    timeout that outlived the SDK's retries) returns `retry`: the adapter
 *    leaves the message to come back, the queue delivers it again, and
 *    after maxReceiveCount the failure recorder writes the last error, kept in
 *    `runs/<run>/attempts/<case>.json`; the judge usage of that delivery is
 *    kept under `runs/<run>/attempt-usage/`, so the report counts calls that
 *    no result holds. When only the rate limit held the judgments, the case
 *    is sent again as a new message instead (`deferred`);
 * 5. each engine's metrics: the ground-truth metrics of every engine, the
 *    judges', and the thresholds (case-result.ts);
 * 6. the result, written to `runs/<run>/results/<case>.json` under a
 *    deterministic key, only when no delivery of the case wrote it first: a
 *    message that came back while an earlier delivery ran adds no second
 *    result, and its judge calls are kept with those of retried deliveries.
 *
 * A judge that answers garbage is not transient: its metric gets an
 * error_message and the case completes. Any other error (the judge secret,
 * the manifest, S3) returns `failed` with its reason, recorded where the
 * failure recorder reads it; but a full disk under a local store is thrown,
 * and stops the run that meets it.
 */
export async function evaluateCaseMessage(
  dependencies: WorkerDependencies,
  message: CaseMessage,
  delivery: Delivery,
): Promise<CaseOutcome> {
  const paid: PaidCalls = {};
  try {
    return await evaluate(dependencies, message, delivery, paid);
  } catch (error) {
    return failed(dependencies.store, message, delivery, error, paid);
  }
}

/** The judge usage of a delivery once its judgments are made: what it paid for, whatever happens after. */
interface PaidCalls {
  usage?: CaseResult['judge_usage'];
}

/**
 * A case stopped by a thrown error: its reason goes where the failure
 * recorder reads it, so the case's failure says why instead of nothing. A
 * store that refuses that too (the S3 error that stopped the case) leaves the
 * reason to the logs, with both errors. A store whose disk is full (or
 * read-only) is thrown on: no later delivery could write the result either,
 * and each would judge the case again (full-disk.ts).
 */
async function failed(store: ObjectStore, message: CaseMessage, delivery: Delivery, error: unknown, paid: PaidCalls): Promise<CaseOutcome> {
  if (fullDiskOf(error) !== undefined) throw error;
  let reason = reasonOf(error);
  try {
    await recordAttemptError(store, message.run_id, message.case_id, reason, delivery.receiveCount);
  } catch (recordError) {
    if (fullDiskOf(recordError) !== undefined) throw recordError;
    reason = `${reason} (and the reason could not be recorded for the failure recorder: ${reasonOf(recordError)})`;
  }
  try {
    await recordPaidCalls(store, message, delivery, paid);
  } catch (recordError) {
    if (fullDiskOf(recordError) !== undefined) throw recordError;
    reason = `${reason} (and the judge calls it made could not be recorded: ${reasonOf(recordError)})`;
  }
  return { kind: 'failed', runId: message.run_id, caseId: message.case_id, error: reason };
}

/**
 * The judge calls of a delivery stopped by an error after its judgments were
 * made (a store that refused the result): kept as those of a delivery that
 * ended in a retry, so the report counts what was paid for. Not when the
 * case has a result: this delivery may have written it (the store refused
 * only its answer), and its calls are counted there.
 */
async function recordPaidCalls(store: ObjectStore, message: CaseMessage, delivery: Delivery, paid: PaidCalls): Promise<void> {
  if (paid.usage === undefined || Object.keys(paid.usage).length === 0) return;
  if ((await store.get(runKeys.result(message.run_id, message.case_id))) !== undefined) return;
  await recordAttemptUsage(store, message, delivery, paid.usage);
}

/** A run as a case of it is evaluated: its manifest, the config stored in it, and the judging built from that. */
interface CaseRun {
  readonly manifest: Manifest;
  readonly config: RunConfig;
  readonly judging: Judging;
}

/** The steps of evaluateCaseMessage's doc comment, in order; a step that ends the delivery early returns its outcome. */
async function evaluate(dependencies: WorkerDependencies, message: CaseMessage, delivery: Delivery, paid: PaidCalls): Promise<CaseOutcome> {
  const { store } = dependencies;
  const manifest = await knownManifest(store, message.run_id);
  const stored = await caseOf(store, message);
  const run = await runOf(dependencies, manifest);
  const answered = await askEngines(store, message, delivery, run.judging, stored);
  if (answered.kind === 'retry') return retry(store, message, delivery, answered.error, {});
  const { evalCase } = answered;
  const { judgment, skipJudging } = await judgeWithinBudget(run, message, delivery, evalCase, paid);
  if (judgment.awaitingBatch.length > 0) return waitForBatchAnswers(store, message, judgment.awaitingBatch);
  if (judgment.transient) return retryOrDefer(dependencies, message, delivery, judgment);
  const engines = caseMetrics(evalCase, answered.metrics, judgment, run.config, run.judging.judges);
  const result = caseResult(message, evalCase, engines, judgment, { config: run.config, judges: run.judging.judges, skipJudging });
  return writeResultOnce(store, message, delivery, result);
}

/** The run's config, from its manifest, and its judging, built once per config (judging-by-config.ts). */
async function runOf(dependencies: WorkerDependencies, manifest: Manifest): Promise<CaseRun> {
  const config = runConfigOf(manifest);
  return { manifest, config, judging: await dependencies.judgingFor(config, manifest.config_hash) };
}

/** The case of a message: carried in it, or read back from its claim check. */
async function caseOf(store: ObjectStore, message: CaseMessage): Promise<EvalCase> {
  return message.case !== undefined ? message.case : readClaimCheck(store, message.case_key);
}

/** A claim-checked case; one missing or unreadable is a bug, and throws. */
async function readClaimCheck(store: ObjectStore, key: string): Promise<EvalCase> {
  const bytes = await store.get(key);
  if (bytes === undefined) throw new Error(`The claim-checked case ${key} is missing`);
  const parsed = parseJsonWith(storedCaseSchema, bytes, 'a stored case');
  if (!parsed.ok) throw new Error(`The claim-checked case ${key} is unreadable: ${parsed.error}`);
  return expandStoredCase(parsed.value);
}

/** The case with the run's live engines' answers in it, asked within the time the invocation leaves them; the case as it is when the run has none. */
async function askEngines(
  store: ObjectStore,
  message: CaseMessage,
  delivery: Delivery,
  judging: Judging,
  stored: EvalCase,
): Promise<LiveEngineStep> {
  // A canary case is judged as the canary set holds it: the engines under test are not asked.
  if (judging.engines === undefined || judging.engines.length === 0 || message.canary === true)
    return { kind: 'answered', evalCase: stored, metrics: {} };
  const deadlineMs = Math.max(1_000, Math.min(ENGINE_DEADLINE_MS, (delivery.remainingMs ?? Number.POSITIVE_INFINITY) - ENGINE_MARGIN_MS));
  return askLiveEngines(store, message.run_id, message.case_id, stored, judging.engines, deadlineMs);
}

/**
 * The case judged, within the invocation's time and run.max_judge_cost:
 * past the run's ceiling (or when the message says so) by its deterministic
 * judges only, and the judge usage added to the worker's spend.
 */
async function judgeWithinBudget(
  run: CaseRun,
  message: CaseMessage,
  delivery: Delivery,
  evalCase: EvalCase,
  paid: PaidCalls,
): Promise<{ judgment: CaseJudgment; skipJudging: boolean }> {
  // Judgments still running when the invocation is about to end are cut, as transient failures, so the case comes back.
  const deadlineAt = delivery.remainingMs === undefined ? undefined : Date.now() + delivery.remainingMs - RESULT_MARGIN_MS;
  const spending = spendingOf(run);
  const reached = spending !== undefined && (await spending.budget.reached(message.run_id));
  // A batch-judged case reads answers already paid for: past the ceiling only what would be judged online is held back
  // (a case of a round judged online whole; a line the jobs did not run, which is then not judged online).
  const batchJudged = batchSettingsOf(run.config.judge.batch) !== undefined;
  // Past the run's cost ceiling a case is still evaluated, by its ground truth and its deterministic judges only.
  const skipJudging = message.skip_judges === 'max_judge_cost' || (reached && (!batchJudged || message.judge_online !== undefined));
  const judges = skipJudging ? run.judging.judges.filter((judge) => judge.kind === 'deterministic') : run.judging.judges;
  const judgment = await judgeCase(judgedView(evalCase, run.config.run.judge_depth), {
    judges,
    backend: run.judging.backend,
    ndcgCutoffs: run.config.run.cutoffs,
    ...(deadlineAt === undefined ? {} : { deadlineAt }),
    runId: message.run_id,
    ...(message.judge_online === undefined ? {} : { batchOnline: true as const }),
    ...(batchJudged && reached ? { batchOnlineRefused: true as const } : {}),
    // A canary case is judged afresh every run: a verdict read back from the cache would hide a judge that changed.
    ...(message.canary === true ? { uncached: true as const } : {}),
  });
  paid.usage = judgment.usage;
  if (spending !== undefined) await spending.budget.add(message.run_id, spending.ceiling, judgment.usage);
  return { judgment, skipJudging };
}

/**
 * This worker's budget and the run's ceiling, when the run sets one and this
 * worker keeps it. A batch-judged case's usage holds the tokens of its online
 * calls alone (the jobs' are counted as they are collected, and their cost
 * where they are submitted: shared/batch-judging/batch-ceiling.ts), so the spend
 * this adds up is what the run spent online.
 */
function spendingOf(run: CaseRun): { budget: JudgeBudget; ceiling: JudgeCeiling } | undefined {
  const ceiling = run.judging.budget === undefined ? undefined : judgeCeilingOf(run.manifest);
  return run.judging.budget !== undefined && ceiling !== undefined ? { budget: run.judging.budget, ceiling } : undefined;
}

/** A case whose judgments wait for answers from batch jobs is recorded as waiting; this delivery is over. */
async function waitForBatchAnswers(
  store: ObjectStore,
  message: CaseMessage,
  requests: CaseJudgment['awaitingBatch'],
): Promise<CaseOutcome> {
  // Whatever else failed on the way is judged again with the rest, once the batch jobs have answered.
  await recordWaitingCase(store, message, requests);
  return { kind: 'waiting', runId: message.run_id, caseId: message.case_id, requests: requests.length };
}

/**
 * A judgment that may pass on a later try: the case goes back through the
 * queue, or, when only the judge server's rate limit held it, is sent again
 * as a new message, delayed (rate-limit-deferral.ts).
 */
async function retryOrDefer(
  dependencies: WorkerDependencies,
  message: CaseMessage,
  delivery: Delivery,
  judgment: CaseJudgment,
): Promise<CaseOutcome> {
  const error = firstError(judgment.engines) ?? 'a judge call failed and may succeed on a later try';
  const deferral = judgment.rateLimited && dependencies.defer !== undefined ? deferralOf(message) : undefined;
  const outcome = await retry(dependencies.store, message, delivery, error, judgment.usage);
  if (deferral === undefined || dependencies.defer === undefined) return outcome;
  await dependencies.defer(deferral.message, deferral.delaySeconds);
  return { kind: 'deferred', runId: message.run_id, caseId: message.case_id, error, delaySeconds: deferral.delaySeconds };
}

/** Records the delivery's last error and judge usage, and sends the case back through the queue. */
async function retry(
  store: ObjectStore,
  message: CaseMessage,
  delivery: Delivery,
  error: string,
  usage: CaseResult['judge_usage'],
): Promise<CaseOutcome> {
  await recordAttemptError(store, message.run_id, message.case_id, error, delivery.receiveCount);
  await recordAttemptUsage(store, message, delivery, usage);
  return { kind: 'retry', runId: message.run_id, caseId: message.case_id, error };
}

/**
 * The result under its deterministic key, only when no delivery of the case
 * wrote it first (the message came back while this one ran): that result
 * stands, and this delivery's judge calls are counted as those of a delivery
 * that ended in a retry are.
 */
async function writeResultOnce(store: ObjectStore, message: CaseMessage, delivery: Delivery, result: CaseResult): Promise<CaseOutcome> {
  const { written } = await store.put(runKeys.result(message.run_id, message.case_id), JSON.stringify(result), { ifNoneMatch: true });
  if (!written) await recordAttemptUsage(store, message, delivery, result.judge_usage);
  return { kind: 'done', runId: message.run_id, caseId: message.case_id };
}

/** The calls of a delivery whose result no case holds were made (and maybe paid): kept under its own key, so the report counts them too. */
async function recordAttemptUsage(
  store: ObjectStore,
  message: CaseMessage,
  delivery: Delivery,
  usage: CaseResult['judge_usage'],
): Promise<void> {
  const deliveryId = `${delivery.messageId}-${delivery.receiveCount}`;
  await store.put(runKeys.attemptUsage(message.run_id, message.case_id, deliveryId), JSON.stringify(usage));
}

/**
 * What the judges see: each engine's list cut at `run.judge_depth`, as TREC
 * pools to a depth. The ground-truth metrics use the whole list.
 */
function judgedView(evalCase: EvalCase, depth: number): EvalCase {
  const engines = Object.fromEntries(
    Object.entries(evalCase.engines).map(([engine, output]) => [
      engine,
      { ...output, retrieved_context: output.retrieved_context.slice(0, depth) },
    ]),
  );
  return { ...evalCase, engines };
}

function firstError(engines: Record<string, Record<string, MetricValue>>): string | undefined {
  for (const metrics of Object.values(engines)) {
    for (const [name, value] of Object.entries(metrics)) {
      if (name.endsWith('/error_message') && typeof value === 'string') return value;
    }
  }
  return undefined;
}
