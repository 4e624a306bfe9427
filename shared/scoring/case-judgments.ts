import type { EngineOutput, EvalCase } from '../schema/eval-case.js';
import type { BatchRequest } from '../schema/batch-request.js';
import type { DagJudge } from '../judges/dag/dag-judge.js';
import { walkDag } from '../judges/dag/walk-dag.js';
import type { LlmJudge } from '../judges/judge-definition.js';
import type { JudgmentOutcome } from '../judges/judgment-outcome.js';
import type { JudgeOutcome, JudgeRunner } from './judge-service.js';
import { addUsage, emptyUsage, judgmentUsage, type JudgeUsage } from './judge-usage-tally.js';
import { isLexicalJudge, lexicalVerdict } from '../judges/lexical/lexical-judge.js';
import type { TemplateInput } from '../judges/template.js';

export type JudgeBackend = { kind: 'llm'; service: JudgeRunner } | { kind: 'lexical' };

/** What one judge concluded about one engine of a case in one sample: per chunk, or on the whole output, or why it could not. */
export type EngineJudgments = { skipped: string } | { chunks: JudgmentOutcome[] } | { whole: JudgmentOutcome };

export interface CaseJudgmentSettings {
  readonly backend: JudgeBackend;
  readonly deadlineAt?: number | undefined;
  /** The run of the case: its batch judgments find their answers under it. */
  readonly runId?: string | undefined;
  /** Its batch judgments are made online where no job answered (a round below the provider's minimum a job). */
  readonly batchOnline?: true | undefined;
  /** The run's cost ceiling was reached: its batch judgments fall back to no online call. */
  readonly batchOnlineRefused?: true | undefined;
  /** Every judgment is made afresh, past the judge cache (a canary case's). */
  readonly uncached?: true | undefined;
}

/**
 * The judgments of one case, each asked once however many metrics need it:
 * a judge's own metrics, the ensembles it is a member of, and its samples.
 * A chunk is judged once per judge and sample for all engines that
 * retrieved it (pooled judging). Usage is counted per judge id.
 */
export class CaseJudgments {
  private readonly byEngine = new Map<string, Promise<EngineJudgments>>();
  private readonly byChunk = new Map<string, Promise<JudgmentOutcome>>();
  /** Some judgment failed in a way that may pass on a later try. */
  transient = false;
  /** Every such failure came of the judge server's rate limit holding the judgment past its deadline. */
  onlyRateLimited = true;
  /** The requests whose answers from batch jobs the case's judgments wait for, by id. */
  readonly awaitingBatch = new Map<string, BatchRequest>();
  readonly usage: Record<string, JudgeUsage> = {};

  constructor(
    private readonly evalCase: EvalCase,
    private readonly settings: CaseJudgmentSettings,
  ) {}

  /** Sample 0 is the judgment an unrepeated judge makes; samples 1 and up are further draws at its temperature. */
  of(judge: LlmJudge | DagJudge, engine: string, sample: number): Promise<EngineJudgments> {
    const key = JSON.stringify([judge.id, engine, sample]);
    let judgments = this.byEngine.get(key);
    if (judgments === undefined) {
      judgments = this.judge(judge, engine, sample);
      this.byEngine.set(key, judgments);
    }
    return judgments;
  }

  private async judge(judge: LlmJudge | DagJudge, engine: string, sample: number): Promise<EngineJudgments> {
    const output = this.evalCase.engines[engine] as EngineOutput;
    if (this.settings.backend.kind === 'lexical' && (judge.kind === 'dag' || !isLexicalJudge(judge.id))) {
      return { skipped: 'needs an LLM judge: set OPENAI_API_KEY (and OPENAI_BASE_URL, ASSAY_JUDGE_MODEL) to run it' };
    }
    if (judge.kind === 'llm' && judge.assessment === 'chunk') {
      if (output.retrieved_context.length === 0) return { skipped: 'the engine retrieved no chunks' };
      const caseInputs = caseInputsOf(this.evalCase);
      const missing = judge.inputs.filter((input) => input !== 'chunk' && caseInputs[input] === undefined);
      if (missing.length > 0) return { skipped: `the case has no ${missing.join(', ')}` };
      const chunks = await Promise.all(
        output.retrieved_context.map((chunk) =>
          chunk.content === undefined || chunk.content.trim() === ''
            ? Promise.resolve<JudgmentOutcome>({
                ok: false,
                error: { message: `chunk ${chunk.doc_uri} has no text to judge`, transient: false },
              })
            : this.chunkOutcome(judge, chunk.content, sample),
        ),
      );
      return { chunks };
    }
    const inputs = inputsOf(this.evalCase, output);
    const missing = judge.inputs.filter((input) => inputs[input] === undefined);
    if (missing.length > 0) return { skipped: `the case has no ${missing.join(', ')}` };
    const whole =
      judge.kind === 'dag'
        ? await walkDag(judge, inputs, (node, nodeInputs) => this.run(node, nodeInputs, sample, judge.client))
        : await this.run(judge, inputs, sample, judge.client);
    return { whole };
  }

  private chunkOutcome(judge: LlmJudge, text: string, sample: number): Promise<JudgmentOutcome> {
    const key = JSON.stringify([judge.id, sample, text]);
    let outcome = this.byChunk.get(key);
    if (outcome === undefined) {
      outcome = this.run(judge, { ...caseInputsOf(this.evalCase), chunk: text }, sample, judge.client);
      this.byChunk.set(key, outcome);
    }
    return outcome;
  }

  private async run(
    judge: LlmJudge,
    inputs: Partial<Record<TemplateInput, string>>,
    sample: number,
    client: LlmJudge['client'],
  ): Promise<JudgmentOutcome> {
    const backend = this.settings.backend;
    if (backend.kind === 'lexical') {
      if (!isLexicalJudge(judge.id)) throw new Error(`Judge ${judge.id} has no lexical approximation: it should have been skipped`);
      const verdict = lexicalVerdict(judge.id, {
        request: inputs.request ?? '',
        response: inputs.response,
        chunk: inputs.chunk,
        context: inputs.context === undefined ? undefined : [inputs.context],
      });
      return verdict.ok ? verdict : { ok: false, error: { message: verdict.error, transient: false } };
    }
    const outcome = await backend.service.judge(judge, inputs, {
      deadline: this.settings.deadlineAt,
      sample,
      client,
      runId: this.settings.runId,
      batchOnline: this.settings.batchOnline,
      batchOnlineRefused: this.settings.batchOnlineRefused,
      uncached: this.settings.uncached,
    });
    if (!outcome.ok && outcome.awaitingBatch !== undefined) {
      // Not a failure and nothing spent: the case is judged again once the request has its answer.
      this.awaitingBatch.set(outcome.awaitingBatch.id, outcome.awaitingBatch);
      return judgmentOf(outcome);
    }
    if (!outcome.ok && outcome.transient) {
      this.transient = true;
      if (outcome.heldByRateLimit !== true) this.onlyRateLimited = false;
    }
    const counted = Object.hasOwn(this.usage, judge.id) ? this.usage[judge.id] : undefined;
    this.usage[judge.id] = addUsage(counted ?? emptyUsage(), judgmentUsage(outcome.cost, !outcome.ok));
    return judgmentOf(outcome);
  }
}

/** The judge service's outcome as the case keeps it: its cost is counted apart, in the case's usage. */
function judgmentOf(outcome: JudgeOutcome): JudgmentOutcome {
  if (outcome.ok) return { ok: true, value: outcome.verdict };
  const { error: message, transient, heldByRateLimit } = outcome;
  return { ok: false, error: { message, transient, ...(heldByRateLimit === true ? { heldByRateLimit } : {}) } };
}

/** The inputs of a case that are the same for every engine: what a chunk judge sees besides the chunk. */
function caseInputsOf(evalCase: EvalCase): Partial<Record<TemplateInput, string>> {
  return {
    request: evalCase.request,
    expected_response: evalCase.expected_response,
    expected_facts:
      evalCase.expected_facts === undefined || evalCase.expected_facts.length === 0
        ? undefined
        : evalCase.expected_facts.map((fact) => `- ${fact}`).join('\n'),
  };
}

/** The template inputs a case and one of its engines provide; absent ones stay undefined. */
export function inputsOf(evalCase: EvalCase, output: EngineOutput): Partial<Record<TemplateInput, string>> {
  const texts = output.retrieved_context.flatMap((chunk) => (chunk.content === undefined ? [] : [chunk.content]));
  return {
    ...caseInputsOf(evalCase),
    response: output.response,
    context: texts.length === 0 ? undefined : texts.map((text, index) => `[${index + 1}] ${text}`).join('\n\n'),
  };
}
