import { parentPort, workerData } from 'node:worker_threads';
import { z } from 'zod/mini';
import { selectMeasures } from '../shared/trec/measure-selection.js';
import { readQrels } from '../shared/trec/qrels.js';
import { scoreRunFile } from '../shared/trec/score-run-file.js';
import { formatInputError } from '../shared/schema/format-input-error.js';

/**
 * A worker thread of `assay ir-metrics` with several runs: it reads the
 * qrels, scores the runs it was given one after another, and posts each run's
 * text (or error) with its position, so the main thread prints them in the
 * order given while the runs are scored on every core.
 */
const taskSchema = z.object({
  qrelsPath: z.string(),
  measures: z.array(z.string()),
  evaluation: z.object({ relevanceLevel: z.number(), gain: z.enum(['linear', 'exponential']), complete: z.boolean() }),
  output: z.object({ json: z.boolean(), perTopic: z.boolean(), summary: z.boolean() }),
  runs: z.array(z.object({ position: z.number(), path: z.string() })),
});

const task = taskSchema.parse(workerData);
const selection = selectMeasures(task.measures);
if (!selection.ok) throw new Error(`The main thread checked the measures: ${selection.error}`);
const qrels = await readQrels(task.qrelsPath);
for (const { position, path } of task.runs) {
  const score = qrels.ok ? await scoreRunFile(qrels.qrels, path, selection.measures, task.evaluation, task.output) : { ok: false as const, error: formatInputError(qrels.error) };
  parentPort?.postMessage({ position, score });
}
