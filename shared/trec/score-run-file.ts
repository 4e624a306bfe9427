import { formatInputError } from '../schema/format-input-error.js';
import { evaluateRun, type EvaluationOptions } from './evaluate.js';
import { formatTrecJson, formatTrecText } from './format.js';
import type { SelectedMeasure } from './measure-selection.js';
import type { Qrels } from './qrels.js';
import { readRun } from './run.js';

/** What `ir-metrics` prints for each run. */
export interface ScoreOutput {
  readonly json: boolean;
  readonly perTopic: boolean;
  readonly summary: boolean;
}

export type RunScore = { ok: true; text: string } | { ok: false; error: string };

/**
 * One run file scored against read qrels, as the text `ir-metrics` prints for
 * it (trec_eval's format, or its JSON object). Expected failures (a bad line,
 * no topic in common) are values with the message to print.
 */
export async function scoreRunFile(qrels: Qrels, runPath: string, measures: readonly SelectedMeasure[], options: EvaluationOptions, output: ScoreOutput): Promise<RunScore> {
  const run = await readRun(runPath);
  if (!run.ok) return { ok: false, error: formatInputError(run.error) };
  const result = evaluateRun(qrels, run.run, measures, options);
  if (!result.ok) return { ok: false, error: result.error };
  const text = output.json
    ? formatTrecJson(result.evaluation, { perTopic: true, summary: true })
    : formatTrecText(result.evaluation, { perTopic: output.perTopic, summary: output.summary });
  return { ok: true, text };
}
