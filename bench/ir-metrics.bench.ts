import { createReadStream, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { benchArgs, benchOptions, oneOf, wholeNumber } from './bench-options.js';
import { generateCollection, TREC_BENCH_OPTIONS, type CollectionShape } from './generate-collection.js';
import { benchManyRuns } from './ir-metrics-many-runs.js';
import { officialRuns } from './official-runs.js';
import { median, timeCommands } from './time-command.js';
import { GOLDEN_MEASURE_FLAGS, SHARED_TASK_MEASURE_FLAGS } from '../test/support/trec-measure-flags.js';

/**
 * Times `assay ir-metrics` against a trec_eval binary and checks that both
 * print the same bytes, in two parts:
 * - large: one run of 10,000 queries x 1,000 documents;
 * - many: 17 runs x 100 queries x 1,000 documents against one qrels file
 *   (Robust03's shape: 100 topics, 1,000 documents a run) with the measures
 *   a shared task reports, one assay process against a loop of trec_eval
 *   processes.
 *
 *   npm run bench -- --trec-eval /path/to/trec_eval [--part large|many|all] [--queries 10000]
 *     [--runs 17] [--run-queries 100] [--documents 1000] [--repeat 3]
 *   npm run bench -- --trec-eval /path/to/trec_eval --qrels QRELS --runs-folder DIR [--repeat 3]
 *
 * With --qrels and --runs-folder the many-runs part times a collection of
 * official runs instead of the generated one (every file of the folder a
 * run; official-runs.ts names two public ones), and the large part is left
 * out.
 *
 * trec_eval is not part of this repository: build it from its public source
 * anywhere outside the repository and pass its path (or set TREC_EVAL).
 * The collections are written once to bench/.data/ (ignored by git) and reused.
 */
const { values } = benchArgs('bench', {
  options: {
    'trec-eval': { type: 'string', default: process.env.TREC_EVAL },
    part: { type: 'string', default: 'all' },
    queries: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '17' },
    'run-queries': { type: 'string', default: '100' },
    documents: { type: 'string', default: '1000' },
    judged: { type: 'string', default: '200' },
    repeat: { type: 'string', default: '3' },
    seed: { type: 'string', default: '42' },
    qrels: { type: 'string' },
    'runs-folder': { type: 'string' },
  },
});
const options = benchOptions(
  'bench',
  z.object({ part: oneOf(['large', 'many', 'all']), ...TREC_BENCH_OPTIONS, 'run-queries': wholeNumber(1) }),
  values,
);

const trecEval = options['trec-eval'];
if (trecEval === undefined || !existsSync(trecEval)) {
  console.error('Pass the path of a trec_eval binary with --trec-eval PATH (or TREC_EVAL=PATH).');
  process.exit(2);
}

const folder = join(import.meta.dirname, '.data');
mkdirSync(folder, { recursive: true });
const assayBin = join(import.meta.dirname, '..', 'cli', 'bin.js');
const { repeat } = options;
const measures = GOLDEN_MEASURE_FLAGS;
const shapeWith = (queries: number): CollectionShape => ({
  queries,
  documentsPerQuery: options.documents,
  judgedPerQuery: options.judged,
  seed: options.seed,
});

const official = officialRuns(options.qrels, options['runs-folder']);
if (options.part !== 'many' && official === undefined) await benchLargeRun(trecEval, shapeWith(options.queries));
// The many-runs part scores what a shared task such as Robust03 reports for each of its runs.
const sharedTaskMeasures = SHARED_TASK_MEASURE_FLAGS;
if (options.part !== 'large' || official !== undefined) {
  console.log('');
  await benchManyRuns({
    trecEval,
    assayBin,
    folder,
    runs: options.runs,
    shape: shapeWith(options['run-queries']),
    measures: sharedTaskMeasures,
    repeat,
    ...(official === undefined ? {} : { official }),
  });
}

async function benchLargeRun(trecEvalPath: string, shape: CollectionShape): Promise<void> {
  const stem = `q${shape.queries}-d${shape.documentsPerQuery}-j${shape.judgedPerQuery}-s${shape.seed}`;
  const qrels = join(folder, `${stem}.qrels`);
  const run = join(folder, `${stem}.run`);
  if (!existsSync(qrels) || !existsSync(run)) {
    console.log(`Generating ${shape.queries} queries x ${shape.documentsPerQuery} documents...`);
    await generateCollection(qrels, run, shape);
  }
  const commands = {
    trec_eval: [trecEvalPath, ['-q', ...measures, qrels, run]] as const,
    // Through the shebang, as a user starts it (the larger semi-space matters for large runs).
    assay: [assayBin, ['ir-metrics', '-q', ...measures, qrels, run]] as const,
  };
  const times: Record<string, number[]> = { trec_eval: [], assay: [] };
  const digests: Record<string, string> = {};
  for (let round = 0; round < repeat; round++) {
    // Alternate the two so that background load affects both alike.
    for (const [name, command] of Object.entries(commands)) {
      const { seconds, digest } = await timeCommands([command]);
      times[name]?.push(seconds);
      digests[name] = digest;
      console.log(`round ${round + 1}: ${name.padEnd(9)} ${seconds.toFixed(2)} s`);
    }
  }
  const assayMedian = median(times.assay ?? []);
  const trecMedian = median(times.trec_eval ?? []);
  console.log(`\ncollection: ${shape.queries} queries x ${shape.documentsPerQuery} documents (${stem})`);
  console.log(`trec_eval median ${trecMedian.toFixed(2)} s, assay median ${assayMedian.toFixed(2)} s`);
  console.log(`ratio assay / trec_eval = ${(assayMedian / trecMedian).toFixed(2)}x`);
  console.log(`outputs identical: ${digests.assay === digests.trec_eval ? 'yes' : 'NO'}`);
  let bytes = 0;
  for await (const chunk of createReadStream(run)) bytes += (chunk as Buffer).length;
  console.log(`run file: ${(bytes / 1e6).toFixed(0)} MB`);
}
