import type { Result } from '../schema/result.js';
import { formatInputError } from '../schema/format-input-error.js';
import { evaluateRanked, evaluateRun, type Evaluation, type EvaluationOptions } from './evaluate.js';
import { formatTrecJson, formatTrecText } from './format.js';
import type { SelectedMeasure } from './measure-selection.js';
import type { Qrels } from './qrels.js';
import { readRun } from './run.js';
import { RunKernel } from './run-kernel.js';

/** What `ir-metrics` prints for each run. */
export interface ScoreOutput {
  readonly json: boolean;
  readonly perTopic: boolean;
  readonly summary: boolean;
}

/** The text `ir-metrics` prints for a run, or the message of why it cannot. */
export type RunScore = Result<string>;

/**
 * One run file scored against read qrels, as the text `ir-metrics` prints for
 * it (trec_eval's format, or its JSON object). Expected failures (a bad line,
 * no topic in common) are values with the message to print.
 */
export async function scoreRunFile(
  qrels: Qrels,
  runPath: string,
  measures: readonly SelectedMeasure[],
  options: EvaluationOptions,
  output: ScoreOutput,
): Promise<RunScore> {
  const result = await evaluateRunFile(qrels, runPath, measures, options);
  if (!result.ok) return { ok: false, error: result.error };
  const text = output.json
    ? formatTrecJson(result.value, { perTopic: true, summary: true })
    : formatTrecText(result.value, { perTopic: output.perTopic, summary: output.summary });
  return { ok: true, value: text };
}

/** Each qrels' kernel, made once per thread; null when the qrels' topic ids keep it out. */
const kernels = new WeakMap<Qrels, RunKernel | null>();

/**
 * A run file evaluated: ranked by the WebAssembly kernel when the file is of
 * the common shape, read and ranked in JavaScript otherwise; the measures are
 * the same code either way.
 */
async function evaluateRunFile(
  qrels: Qrels,
  runPath: string,
  measures: readonly SelectedMeasure[],
  options: EvaluationOptions,
): Promise<Result<Evaluation>> {
  let kernel = kernels.get(qrels);
  if (kernel === undefined) {
    kernel = RunKernel.for(qrels) ?? null;
    kernels.set(qrels, kernel);
  }
  const ranked = kernel?.rank(runPath);
  if (ranked !== undefined) return evaluateRanked(qrels, ranked, measures, options);
  const run = await readRun(runPath);
  if (!run.ok) return { ok: false, error: formatInputError(run.error) };
  return evaluateRun(qrels, run.value, measures, options);
}
