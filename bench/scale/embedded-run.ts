import { join } from 'node:path';
import { embeddedInfrastructure } from '../../cli/run/store-and-queues.js';
import { Progress } from '../../cli/run/progress.js';
import { runPipeline } from '../../cli/run/run-pipeline.js';
import { configFileSchema } from '../../shared/config/index.js';
import { peakResidentMiB } from './peak-memory.js';

/**
 * One embedded run in a process of its own, so its peak memory is the run's:
 *   tsx bench/scale/embedded-run.ts DATASET WORK_FOLDER
 * Prints one JSON line: wall seconds, peak resident MiB, the run id and its case counts.
 */
const [datasetPath, folder] = process.argv.slice(2);
if (datasetPath === undefined || folder === undefined) throw new Error('Expected DATASET and WORK_FOLDER');
const silent = (usage: () => Record<string, unknown>) => new Progress({ write: () => true, isTTY: false } as unknown as NodeJS.WriteStream, usage as never);
const started = performance.now();
const result = await runPipeline(
  {
    datasetPath,
    suite: 'scale',
    config: configFileSchema.parse({ judges: ['document_recall'] }),
    strict: false,
    noCache: true,
    concurrency: 16,
    outFolder: join(folder, 'out'),
    environment: {},
    // The worker threads `assay run` uses, from the build `npm ci` makes: this script runs from the source.
    threadEntry: new URL('../../dist/cli/pipeline-thread.js', import.meta.url),
  },
  embeddedInfrastructure(join(folder, 'store'), 30),
  silent,
);
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ seconds, peakMiB: peakResidentMiB(), runId: result.runId, cases: result.report.cases }));
