import { once } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import { selectMeasures } from '../../shared/trec/measure-selection.js';
import { qrelsFromParts, type QrelsParts } from '../../shared/trec/qrels.js';
import { scoreRunFile } from '../../shared/trec/score-run-file.js';
import { claimRun, type WorkerTask } from './ir-metrics-threads.js';

/**
 * A worker thread of `assay ir-metrics` with several runs: it waits for the
 * qrels the main thread read, then takes the runs nobody has taken yet from
 * the shared counter one after another, and posts each run's text (or error)
 * with its position, so the main thread prints them in the order given while
 * the runs are scored on every core. Its task is no outside input: the main
 * thread built it from options it had checked already, and the structured
 * clone keeps its shape, so it is not parsed again (loading a schema library
 * would cost each thread a tenth of a second).
 */
if (parentPort === null) throw new Error('ir-metrics-worker runs as a worker thread of assay ir-metrics');
const port = parentPort;
const task = workerData as WorkerTask;
const selection = selectMeasures(task.measures);
if (!selection.ok) throw new Error(`The main thread checked the measures: ${selection.error}`);
const [parts] = (await once(port, 'message')) as [QrelsParts];
const qrels = qrelsFromParts(parts);
for (let position = claimRun(task.claims); position < task.runPaths.length; position = claimRun(task.claims)) {
  const path = task.runPaths[position] as string;
  port.postMessage({ position, score: await scoreRunFile(qrels, path, selection.value, task.evaluation, task.output) });
}
