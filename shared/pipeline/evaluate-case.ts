import type { JudgeDefinition } from '../judges/judge-definition.js';
import type { MetricValue } from '../judges/metric-value.js';
import { judgeCase, type JudgeBackend } from '../judges/run-judges.js';
import type { ObjectStore } from '../ports/object-store.js';
import { evalCaseSchema, type EvalCase } from '../schema/eval-case.js';
import type { CaseMessage } from '../schema/pipeline-messages.js';
import { manifestSchema, type CaseResult, type Manifest } from '../schema/run-records.js';
import { groundTruthMetrics } from './ground-truth-metrics.js';
import type { RunConfig } from './run-config.js';
import { runKeys } from './run-identity.js';

/** The judges of a run and the backend that runs them, built from the run's config. */
export interface Judging {
  readonly backend: JudgeBackend;
  readonly judges: readonly JudgeDefinition[];
}

export interface WorkerDependencies {
  readonly store: ObjectStore;
  /** Judging for a run's config; implementations cache it per config hash. */
  judgingFor(config: RunConfig, configHash: string): Judging | Promise<Judging>;
}

export type CaseOutcome = { kind: 'done'; runId: string; caseId: string } | { kind: 'retry'; runId: string; caseId: string; error: string };

/** One delivery of a case message: SQS's message id and receive count name it. */
export interface Delivery {
  readonly messageId: string;
  readonly receiveCount: number;
}

/**
 * The judge worker's work on one case message: the ground-truth metrics of
 * every engine, then the configured judges, written to
 * `runs/<run>/results/<case>.json` under a deterministic key, so a redelivered
 * message overwrites its own result instead of adding one.
 *
 * A judge failure that may pass later (rate limit, server error, timeout that
 * outlived the SDK's retries) returns `retry`: the handler fails the record,
 * the queue delivers it again, and after maxReceiveCount the failure recorder
 * writes the last error, kept in `runs/<run>/attempts/<case>.json`; the judge
 * usage of that delivery is kept under `runs/<run>/attempt-usage/`, so the
 * report counts calls that no result holds. A judge
 * that answers garbage is not transient: its metric gets an error_message and
 * the case completes.
 */
export async function evaluateCaseMessage(dependencies: WorkerDependencies, message: CaseMessage, delivery: Delivery): Promise<CaseOutcome> {
  const { store } = dependencies;
  const manifest = await readManifest(store, message.run_id);
  const evalCase = message.case ?? (await readClaimCheck(store, message.case_key as string));
  const judging = await dependencies.judgingFor(manifest.config as unknown as RunConfig, manifest.config_hash);
  const judgement = await judgeCase(evalCase, { judges: judging.judges, backend: judging.backend, ndcgCutoffs: cutoffsOf(manifest) });
  if (judgement.transient) {
    const error = firstError(judgement.engines) ?? 'a judge call failed and may succeed on a later try';
    await store.put(runKeys.lastError(message.run_id, message.case_id), JSON.stringify({ error, receive_count: delivery.receiveCount }));
    // The calls of a delivery that ends in a retry were made (and maybe paid): the report counts them too.
    const deliveryId = `${delivery.messageId}-${delivery.receiveCount}`;
    await store.put(runKeys.attemptUsage(message.run_id, message.case_id, deliveryId), JSON.stringify(judgement.usage));
    return { kind: 'retry', runId: message.run_id, caseId: message.case_id, error };
  }
  const engines: Record<string, Record<string, MetricValue>> = {};
  for (const [engine, output] of Object.entries(evalCase.engines)) {
    engines[engine] = { ...groundTruthMetrics(evalCase, output, cutoffsOf(manifest)), ...judgement.engines[engine] };
  }
  const result: CaseResult = {
    run_id: message.run_id,
    case_id: message.case_id,
    request_id: evalCase.request_id,
    request: evalCase.request,
    engines,
    skipped: judgement.skipped,
    judge_usage: judgement.usage,
  };
  await store.put(runKeys.result(message.run_id, message.case_id), JSON.stringify(result));
  return { kind: 'done', runId: message.run_id, caseId: message.case_id };
}

function cutoffsOf(manifest: Manifest): readonly number[] {
  const config = manifest.config as unknown as Partial<RunConfig>;
  return config.run?.cutoffs ?? [5, 10];
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
export async function readManifest(store: ObjectStore, runId: string): Promise<Manifest> {
  const bytes = await store.get(runKeys.manifest(runId));
  if (bytes === undefined) throw new Error(`Run ${runId} has no manifest`);
  return manifestSchema.parse(JSON.parse(new TextDecoder().decode(bytes)));
}

async function readClaimCheck(store: ObjectStore, key: string): Promise<EvalCase> {
  const bytes = await store.get(key);
  if (bytes === undefined) throw new Error(`The claim-checked case ${key} is missing`);
  return evalCaseSchema.parse(JSON.parse(new TextDecoder().decode(bytes)));
}
