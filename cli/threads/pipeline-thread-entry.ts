import { parentPort, workerData } from 'node:worker_threads';
import { LocalFolderStore } from '../../shared/ports/local-folder-store.js';
import type { RunFileTopics } from '../../shared/trec-collection/run-file-topics.js';
import type { ThreadReply, ThreadRequest, ThreadSetup, ThreadTask } from './pipeline-threads.js';
import { thrownOnThread } from './thrown-on-thread.js';

/**
 * A pipeline thread of an embedded `assay run` (pipeline-threads.ts): it
 * opens the run's store folder and answers the main thread's tasks. Each kind
 * of task loads its code on first use, so a thread starts in a few
 * milliseconds and loads only what it is asked to do. Tasks come from the
 * main thread, which built them from its own queues and checked input, so
 * they are not parsed again; the case messages inside a batch are, by the
 * judge worker's step itself (shared/worker/case-delivery.ts).
 */
if (parentPort === null) throw new Error('pipeline-thread runs as a worker thread of assay run');
const port = parentPort;
const { storeFolder } = workerData as ThreadSetup;
const store = new LocalFolderStore(storeFolder);
let judge: ReturnType<typeof import('./thread-judge.js').threadJudge> | undefined;

async function judgeWorker(): Promise<NonNullable<typeof judge>> {
  judge ??= (await import('./thread-judge.js')).threadJudge(store);
  return judge;
}

async function answer(task: ThreadTask): Promise<unknown> {
  switch (task.kind) {
    case 'load':
      await Promise.all([judgeWorker(), import('../../shared/reduce/aggregate-range.js')]);
      return null;
    case 'spill-run': {
      const { spillRunFile } = await import('../../shared/trec-collection/trec-run-spilling-reader.js');
      return spillRunFile(task.file, task.fileIndex, task.folder, task.partitions);
    }
    case 'run-topics': {
      const { readRunTopics } = await import('../../shared/trec-collection/trec-run-topics.js');
      return readRunTopics(task.file);
    }
    case 'trec-partition': {
      const { serializedPartitionCases } = await import('../../shared/trec-collection/trec-partition-cases.js');
      return serializedPartitionCases(task.request);
    }
    case 'judge':
      return (await judgeWorker())(task.deliveries);
    case 'mean-intervals': {
      const { meanInterval } = await import('../../shared/report/metric-statistics.js');
      return task.lists.map((values) => meanInterval(values));
    }
    case 'aggregate': {
      const { rangeAggregatorOf } = await import('../../shared/reduce/aggregate-range.js');
      return rangeAggregatorOf(store, task.runId)(task.range, task.caseIds, task.keepLines, task.linesPath);
    }
  }
}

/** What an answer hands over rather than copies: a run file's rankings, megabytes in a buffer of their own (RunFileTopics.json). */
function handedOver(task: ThreadTask, value: unknown): ArrayBuffer[] {
  return task.kind === 'run-topics' ? [(value as RunFileTopics).json.buffer as ArrayBuffer] : [];
}

port.on('message', (request: ThreadRequest) => {
  answer(request.task).then(
    (value) => port.postMessage({ id: request.id, ok: true, value } satisfies ThreadReply, handedOver(request.task, value)),
    (error: unknown) => port.postMessage({ id: request.id, ok: false, error: thrownOnThread(error) } satisfies ThreadReply),
  );
});
