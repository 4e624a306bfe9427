import pLimit from 'p-limit';
import { z } from 'zod';
import { askEngines, type EngineAsk } from '../engines/ask-engines.js';
import { expandEngines, type Environment } from '../engines/create-engine.js';
import type { EngineConfig } from '../engines/engine-config.js';
import type { Engine } from '../engines/engine.js';
import type { ObjectStore } from '../ports/object-store.js';
import { readJsonWith } from '../schema/parse-json-with.js';
import { retrievedChunkSchema, type EngineOutput, type EvalCase } from '../schema/eval-case.js';
import { runKeys } from '../run/run-identity.js';

/**
 * The live-engine step of the judge worker: before a case is judged, every
 * engine of its run's config is asked for the case's query, so each run
 * measures the engines as they are that day. An engine's answer (or its
 * permanent failure) is kept under `runs/<run>/engine-answers/<case>.json`,
 * so a redelivered case reuses what its run already fetched and asks only
 * the engines still missing; answers are never reused across runs.
 */

/** Longest a case waits for its engines, retries included, when the invocation has more time than that. */
export const ENGINE_DEADLINE_MS = 60_000;

/**
 * Builds a config's live engines; an engine that cannot be built (a missing
 * variable) is an error naming it. The engines share one limit of calls in
 * flight (`run.engine_concurrency`), over every case a worker has at once:
 * the pressure put on the systems under test, as the judge concurrency is on
 * the judge.
 */
export function buildLiveEngines(configs: readonly EngineConfig[] | undefined, env: Environment, concurrency = 8): Engine[] {
  if (configs === undefined || configs.length === 0) return [];
  const creation = expandEngines(configs, env);
  if (!creation.ok) throw new EngineSetupError(creation.error.join('; '));
  const limit = pLimit(concurrency);
  return creation.value.map((engine) => ({
    name: engine.name,
    call: (request, signal) => limit(() => engine.call(request, signal)),
    close: () => engine.close(),
  }));
}

/** The engines of a run cannot be built where this worker runs: a setup problem, not a bug. */
export class EngineSetupError extends Error {
  override readonly name = 'EngineSetupError';
}

const keptAnswerSchema = z.union([
  // attempts is absent from answers kept before engines counted them.
  z.object({
    ok: z.literal(true),
    retrieved_context: z.array(retrievedChunkSchema),
    response: z.string().optional(),
    latency_ms: z.number(),
    attempts: z.number().int().positive().optional(),
  }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
const keptAnswersSchema = z.record(z.string(), keptAnswerSchema);
type KeptAnswer = z.infer<typeof keptAnswerSchema>;

export type LiveEngineStep =
  | { kind: 'answered'; evalCase: EvalCase; metrics: Record<string, Record<string, number | string>> }
  | { kind: 'retry'; error: string };

/**
 * Asks the engines that have no kept answer for this case, keeps what came
 * back, and returns the case with each answering engine's output in place
 * (a live engine replaces a frozen output of the same name) and, per engine,
 * `engine/latency_ms` and `engine/attempts` (failed attempts included), or
 * `engine/error_message`. A failure that may pass
 * (timeout, 429, 5xx, throttling) after the engine's own retries sends the
 * case back through the queue; a permanent one stays that engine's error and
 * the other engines are judged.
 */
export async function askLiveEngines(
  store: ObjectStore,
  runId: string,
  caseId: string,
  evalCase: EvalCase,
  engines: readonly Engine[],
  deadlineMs: number,
): Promise<LiveEngineStep> {
  const key = runKeys.engineAnswers(runId, caseId);
  const stored = await store.get(key);
  const kept: Record<string, KeptAnswer> = stored === undefined ? {} : readJsonWith(keptAnswersSchema, stored, key);
  const missing = engines.filter((engine) => !Object.hasOwn(kept, engine.name));
  const transient: string[] = [];
  if (missing.length > 0) {
    // Every engine of the case at once: the engines' shared limit bounds the calls in flight.
    const asked = await askEngines(
      missing,
      { query: evalCase.request, request_id: evalCase.request_id },
      { concurrency: missing.length, deadline: AbortSignal.timeout(deadlineMs) },
    );
    for (const [name, ask] of Object.entries(asked)) {
      const answer = keptFrom(ask);
      if (answer === undefined) transient.push(`engine "${name}": ${ask.ok ? '' : ask.error.message}`);
      else kept[name] = answer;
    }
    await store.put(key, JSON.stringify(kept));
  }
  if (transient.length > 0) return { kind: 'retry', error: transient.join('; ') };
  const outputs: Record<string, EngineOutput> = { ...evalCase.engines };
  const metrics: Record<string, Record<string, number | string>> = {};
  for (const engine of engines) {
    const answer = kept[engine.name] as KeptAnswer;
    if (answer.ok) {
      outputs[engine.name] = {
        retrieved_context: answer.retrieved_context,
        ...(answer.response === undefined ? {} : { response: answer.response }),
        tags: {},
      };
      metrics[engine.name] = {
        'engine/latency_ms': answer.latency_ms,
        ...(answer.attempts === undefined ? {} : { 'engine/attempts': answer.attempts }),
      };
    } else {
      delete outputs[engine.name];
      metrics[engine.name] = { 'engine/error_message': answer.error };
    }
  }
  return { kind: 'answered', evalCase: { ...evalCase, engines: outputs }, metrics };
}

function keptFrom(ask: EngineAsk): KeptAnswer | undefined {
  if (ask.ok) {
    const { retrieved_context, response, latency_ms, attempts } = ask.value;
    return { ok: true, retrieved_context, ...(response === undefined ? {} : { response }), latency_ms, attempts };
  }
  return ask.error.kind === 'permanent' ? { ok: false, error: ask.error.message } : undefined;
}
