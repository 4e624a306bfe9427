import { documentRecall } from '../metrics/document-recall.js';
import type { EngineOutput, EvalCase } from '../schema/eval-case.js';
import { chunkVerdictMetrics } from './chunk-metrics.js';
import type { DagJudge } from './dag/dag-judge.js';
import { walkDag } from './dag/walk-dag.js';
import type { MetricValue } from './metric-value.js';
import type { JudgeDefinition, LlmJudge, Verdict } from './judge-definition.js';
import type { JudgeService, JudgeUsage } from './judge-service.js';
import { isLexicalJudge, lexicalVerdict } from './lexical/lexical-judge.js';
import type { TemplateInput } from './template.js';

/**
 * Judges one case: every configured judge, for every engine of the case, and
 * the metrics that derive from the verdicts, named as Databricks Agent
 * Evaluation names them (`response/llm_judged/<id>/rating`,
 * `retrieval/llm_judged/<id>/ratings`, ...). With the lexical backend the
 * source segment is `lexical`, so a non-LLM number is never mistaken for a
 * judged one.
 *
 * Nothing is dropped: a judge that fails leaves an error_message where its
 * rating would be, and a judge that cannot run for lack of an input is listed
 * in `skipped` with the reason.
 */


export interface CaseJudgement {
  readonly engines: Record<string, Record<string, MetricValue>>;
  readonly skipped: { judge: string; engine: string; reason: string }[];
  /** What judging this case cost, per judge: a cached judgment counts as a cache hit, a pooled one once. */
  readonly usage: Record<string, JudgeUsage>;
  /** Some judgment failed in a way that may pass on a later try (rate limit, server error, timeout). */
  readonly transient: boolean;
}

export type JudgeBackend = { kind: 'llm'; service: JudgeService } | { kind: 'lexical' };

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
}

type Outcome = { ok: true; verdict: Verdict } | { ok: false; error: string; transient: boolean };

interface RunState {
  transient: boolean;
  readonly usage: Record<string, JudgeUsage>;
}

export async function judgeCase(evalCase: EvalCase, options: JudgeRunOptions): Promise<CaseJudgement> {
  const judgement: CaseJudgement = { engines: {}, skipped: [], usage: {}, transient: false };
  const state: RunState = { transient: false, usage: judgement.usage };
  const engines = Object.entries(evalCase.engines);
  for (const [engine] of engines) judgement.engines[engine] = {};
  await Promise.all(
    options.judges.flatMap((judge) => {
      if (judge.kind === 'deterministic') {
        for (const [engine, output] of engines) applyDeterministic(judge.id, evalCase, engine, output, judgement);
        return [];
      }
      if (judge.assessment === 'chunk') return [judgeChunks(judge, evalCase, options, judgement, state)];
      return engines.map(([engine, output]) => judgeWhole(judge, evalCase, engine, output, options, judgement, state));
    }),
  );
  return { ...judgement, transient: state.transient };
}

function sourceOf(backend: JudgeBackend): string {
  return backend.kind === 'llm' ? 'llm_judged' : 'lexical';
}

/** Chunk judges: each distinct chunk text is judged once for all engines of the case (pooled judging). */
async function judgeChunks(
  judge: LlmJudge<any>,
  evalCase: EvalCase,
  options: JudgeRunOptions,
  judgement: CaseJudgement,
  state: RunState,
): Promise<void> {
  const pool = new Map<string, Promise<Outcome>>();
  const outcomeOf = (text: string): Promise<Outcome> => {
    let outcome = pool.get(text);
    if (outcome === undefined) {
      outcome = run(judge, { request: evalCase.request, chunk: text }, options, state);
      pool.set(text, outcome);
    }
    return outcome;
  };
  const prefix = `${judge.scope}/${sourceOf(options.backend)}/${judge.id}`;
  await Promise.all(
    Object.entries(evalCase.engines).map(async ([engine, output]) => {
      const unavailable = unavailableReason(judge, options.backend);
      if (unavailable !== undefined) return judgement.skipped.push({ judge: judge.id, engine, reason: unavailable });
      if (output.retrieved_context.length === 0) {
        return judgement.skipped.push({ judge: judge.id, engine, reason: 'the engine retrieved no chunks' });
      }
      const outcomes = await Promise.all(
        output.retrieved_context.map((chunk) =>
          chunk.content === undefined || chunk.content.trim() === ''
            ? Promise.resolve<Outcome>({ ok: false, error: `chunk ${chunk.doc_uri} has no text to judge`, transient: false })
            : outcomeOf(chunk.content),
        ),
      );
      Object.assign(judgement.engines[engine] as object, chunkVerdictMetrics(prefix, judge.scale, outcomes, options.ndcgCutoffs ?? [5, 10]));
    }),
  );
}

/** Response and case judges: one judgment per engine. */
async function judgeWhole(
  judge: LlmJudge<any> | DagJudge,
  evalCase: EvalCase,
  engine: string,
  output: EngineOutput,
  options: JudgeRunOptions,
  judgement: CaseJudgement,
  state: RunState,
): Promise<void> {
  const unavailable = unavailableReason(judge, options.backend);
  if (unavailable !== undefined) return void judgement.skipped.push({ judge: judge.id, engine, reason: unavailable });
  const inputs = inputsOf(evalCase, output);
  const missing = judge.inputs.filter((input) => inputs[input] === undefined);
  if (missing.length > 0) {
    return void judgement.skipped.push({ judge: judge.id, engine, reason: `the case has no ${missing.join(', ')}` });
  }
  const outcome = judge.kind === 'dag' ? await walkDag(judge, inputs, (node, nodeInputs) => run(node, nodeInputs, options, state)) : await run(judge, inputs, options, state);
  const prefix = `${judge.scope}/${sourceOf(options.backend)}/${judge.id}`;
  const metrics = judgement.engines[engine] as Record<string, MetricValue>;
  metrics[`${prefix}/rating`] = outcome.ok ? outcome.verdict.rating : null;
  metrics[`${prefix}/rationale`] = outcome.ok ? outcome.verdict.rationale : null;
  metrics[`${prefix}/error_message`] = outcome.ok ? null : outcome.error;
  if (outcome.ok) {
    for (const [name, value] of Object.entries(outcome.verdict.details ?? {})) metrics[`${prefix}/${name}`] = value;
  }
}

async function run(
  judge: LlmJudge<any>,
  inputs: Partial<Record<TemplateInput, string>>,
  options: JudgeRunOptions,
  state: RunState,
): Promise<Outcome> {
  if (options.backend.kind === 'lexical') {
    if (!isLexicalJudge(judge.id)) throw new Error(`Judge ${judge.id} has no lexical approximation: it should have been skipped`);
    const verdict = lexicalVerdict(judge.id, {
      request: inputs.request ?? '',
      response: inputs.response,
      chunk: inputs.chunk,
      context: inputs.context === undefined ? undefined : [inputs.context],
    });
    return 'error' in verdict ? { ok: false, error: verdict.error, transient: false } : { ok: true, verdict };
  }
  const outcome = await options.backend.service.judge(judge, inputs, { deadline: options.deadlineAt });
  if (!outcome.ok && outcome.transient) state.transient = true;
  const usage = (state.usage[judge.id] ??= { calls: 0, cache_hits: 0, retries: 0, errors: 0, input_tokens: 0, output_tokens: 0 });
  if (outcome.cost.cached) usage.cache_hits++;
  else usage.calls++;
  usage.retries += outcome.cost.retries;
  usage.input_tokens += outcome.cost.inputTokens;
  usage.output_tokens += outcome.cost.outputTokens;
  if (!outcome.ok) usage.errors++;
  return outcome;
}

function unavailableReason(judge: LlmJudge<any> | DagJudge, backend: JudgeBackend): string | undefined {
  if (backend.kind === 'lexical' && (judge.kind === 'dag' || !isLexicalJudge(judge.id))) {
    return 'needs an LLM judge: set OPENAI_API_KEY (and OPENAI_BASE_URL, ASSAY_JUDGE_MODEL) to run it';
  }
  return undefined;
}

/** The template inputs a case and one of its engines provide; absent ones stay undefined. */
export function inputsOf(evalCase: EvalCase, output: EngineOutput): Partial<Record<TemplateInput, string>> {
  const texts = output.retrieved_context.flatMap((chunk) => (chunk.content === undefined ? [] : [chunk.content]));
  return {
    request: evalCase.request,
    response: output.response,
    context: texts.length === 0 ? undefined : texts.map((text, index) => `[${index + 1}] ${text}`).join('\n\n'),
    expected_response: evalCase.expected_response,
    expected_facts:
      evalCase.expected_facts === undefined || evalCase.expected_facts.length === 0
        ? undefined
        : evalCase.expected_facts.map((fact) => `- ${fact}`).join('\n'),
  };
}

function applyDeterministic(id: string, evalCase: EvalCase, engine: string, output: EngineOutput, judgement: CaseJudgement): void {
  if (id !== 'document_recall') throw new Error(`Unknown deterministic judge ${id}`);
  const expected = (evalCase.expected_retrieved_context ?? []).filter((document) => (document.grade ?? 1) >= 1);
  const value = documentRecall(
    output.retrieved_context.map((chunk) => chunk.doc_uri),
    expected.map((document) => document.doc_uri),
  );
  if (value === undefined) {
    judgement.skipped.push({ judge: id, engine, reason: 'the case has no expected_retrieved_context' });
    return;
  }
  (judgement.engines[engine] as Record<string, MetricValue>)['retrieval/ground_truth/document_recall'] = value;
}
