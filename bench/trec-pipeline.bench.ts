import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { benchArgs, benchOptions } from './bench-options.js';
import { deriveRun } from './derive-run.js';
import { generateCollection, TREC_BENCH_OPTIONS, type CollectionShape } from './generate-collection.js';
import { officialRuns } from './official-runs.js';
import { median, timeCommands } from './time-command.js';

/**
 * Times `assay run --qrels QRELS --run RUN ×17` (embedded, ground truth only:
 * the whole pipeline, ingest to report) against a loop of 17 trec_eval
 * processes on the same collection (17 runs × 100 topics × 1,000 documents),
 * in alternating rounds, and checks that the report's map, P_10, ndcg_cut_10
 * and recip_rank of every run, under its tag, are the doubles trec_eval
 * computes (its output printed with full precision by `assay ir-metrics
 * --json`, which the golden tests hold to trec_eval's bits).
 *
 *   npm run bench:trec-pipeline -- --trec-eval /path/to/trec_eval [--runs 17] [--queries 100]
 *     [--documents 1000] [--repeat 3]
 *   npm run bench:trec-pipeline -- --trec-eval /path/to/trec_eval --qrels QRELS --runs-folder DIR [--repeat 3]
 *
 * With --qrels and --runs-folder it times a collection of official runs
 * instead (every file of the folder a run; official-runs.ts names two public
 * ones), each run's engine named by its tag.
 *
 * The collection is written once to bench/.data/ (ignored by git) and reused.
 * For the final figure, time the two commands it prints as whole processes,
 * alternately (hyperfine, or /usr/bin/time in a loop).
 */
const { values } = benchArgs('bench:trec-pipeline', {
  options: {
    'trec-eval': { type: 'string', default: process.env.TREC_EVAL },
    runs: { type: 'string', default: '17' },
    queries: { type: 'string', default: '100' },
    documents: { type: 'string', default: '1000' },
    judged: { type: 'string', default: '200' },
    repeat: { type: 'string', default: '3' },
    seed: { type: 'string', default: '42' },
    qrels: { type: 'string' },
    'runs-folder': { type: 'string' },
  },
});
const options = benchOptions('bench:trec-pipeline', z.object(TREC_BENCH_OPTIONS), values);

const trecEval = options['trec-eval'];
if (trecEval === undefined || !existsSync(trecEval)) {
  console.error(
    'Pass the path of a trec_eval binary with --trec-eval PATH (or TREC_EVAL=PATH): without one there is nothing to compare with.',
  );
  process.exit(2);
}
const folder = join(import.meta.dirname, '.data');
mkdirSync(folder, { recursive: true });
const assayBin = join(import.meta.dirname, '..', 'cli', 'bin.js');
const shape: CollectionShape = {
  queries: options.queries,
  documentsPerQuery: options.documents,
  judgedPerQuery: options.judged,
  seed: options.seed,
};
const official = officialRuns(options.qrels, options['runs-folder']);
const stem = `many-q${shape.queries}-d${shape.documentsPerQuery}-j${shape.judgedPerQuery}-s${shape.seed}`;
const qrels = official?.qrels ?? join(folder, `${stem}.qrels`);
const runs =
  official?.runs ?? Array.from({ length: options.runs }, (_, index) => join(folder, `${stem}.run${String(index + 1).padStart(2, '0')}`));
const runCount = runs.length;
if (official === undefined && (!existsSync(qrels) || !runs.every((run) => existsSync(run)))) {
  console.log(`Generating ${runCount} runs x ${shape.queries} queries x ${shape.documentsPerQuery} documents...`);
  const [first, ...others] = runs as [string, ...string[]];
  await generateCollection(qrels, first, shape);
  for (const [index, run] of others.entries())
    await deriveRun(first, run, { seed: shape.seed + index + 1, tag: `bench${index + 2}`, spread: 0.5 });
}

const MEASURES = { map: 'average_precision', P_10: 'precision@10', ndcg_cut_10: 'ndcg@10', recip_rank: 'reciprocal_rank' } as const;
const store = join(folder, 'trec-pipeline-store');
const out = join(folder, 'trec-pipeline-report');
const assayArgs = ['run', '--qrels', qrels, ...runs.flatMap((run) => ['--run', run]), '--store', store, '--out', out];
const MEASURE_FLAGS = ['-m', 'map', '-m', 'P.10', '-m', 'ndcg_cut.10', '-m', 'recip_rank'];
const trecEvalArgs = (run: string) => [...MEASURE_FLAGS, qrels, run];

const assayName = `assay run --qrels --run x${runCount}`;
const times: Record<string, number[]> = { 'trec_eval, a process a run': [], [assayName]: [] };
for (let round = 0; round < options.repeat; round++) {
  // A fresh store each time: a second run over the same store would be the same run, already reported.
  await rm(store, { recursive: true, force: true });
  const trec = await timeCommands(runs.map((run) => [trecEval, trecEvalArgs(run)]));
  const assay = await timeCommands([[process.execPath, [assayBin, ...assayArgs]]]);
  times['trec_eval, a process a run']?.push(trec.seconds);
  times[assayName]?.push(assay.seconds);
  console.log(`round ${round + 1}: trec_eval loop ${trec.seconds.toFixed(2)} s, assay run ${assay.seconds.toFixed(2)} s`);
}
const trecMedian = median(times['trec_eval, a process a run'] ?? []);
const assayMedian = median(times[assayName] ?? []);
const collection =
  official === undefined
    ? `${runCount} runs x ${shape.queries} topics x ${shape.documentsPerQuery} documents (${stem})`
    : `${runCount} runs of ${options['runs-folder']} against ${qrels}`;
console.log(`\n${collection}, median of ${options.repeat}:`);
console.log(
  `trec_eval loop ${trecMedian.toFixed(2)} s; assay run ${assayMedian.toFixed(2)} s; ratio ${(assayMedian / trecMedian).toFixed(2)}x`,
);
console.log(`agreement (map, P_10, ndcg_cut_10, recip_rank of every run, exact doubles): ${(await agreement()) ? 'yes' : 'NO'}`);
console.log('\nFor a whole-process comparison, time these two commands alternately:');
console.log(`  assay:     sh -c 'rm -rf ${store} && exec ${process.execPath} ${assayBin} ${assayArgs.join(' ')}'`);
console.log(`  trec_eval: sh -c 'for r in ${runs.join(' ')}; do ${trecEval} ${trecEvalArgs('$r').join(' ')}; done'`);

/** Whether the last report's averages are, run by run, the doubles of `assay ir-metrics --json` (trec_eval's). */
async function agreement(): Promise<boolean> {
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as { engines: Record<string, Record<string, number>> };
  const reference = JSON.parse(
    await output(process.execPath, [assayBin, 'ir-metrics', '--json', ...MEASURE_FLAGS, qrels, ...runs]),
  ) as Record<string, { all: Record<string, number> }>;
  let agrees = true;
  const tags = await Promise.all(
    runs.map(async (run, index) => (official === undefined ? (index === 0 ? 'bench' : `bench${index + 1}`) : lastTag(run))),
  );
  for (const [index, run] of runs.entries()) {
    // A tag that an earlier run file has too names its engine <file>:<tag>, as assay validate names it.
    const tag = tags.indexOf(tags[index] as string) === index ? (tags[index] as string) : `${basename(run)}:${tags[index]}`;
    for (const [trecName, assayName] of Object.entries(MEASURES)) {
      const expected = reference[run]?.all[trecName];
      const actual = report.engines[tag]?.[`retrieval/ground_truth/${assayName}/average`];
      if (actual !== expected) {
        agrees = false;
        console.log(`  ${tag} ${trecName}: report ${actual}, trec_eval ${expected}`);
      }
    }
  }
  return agrees;
}

/** The tag of a run file's last line: the run id trec_eval reports and the engine's name. */
async function lastTag(run: string): Promise<string> {
  const lines = (await readFile(run, 'latin1')).trimEnd().split('\n');
  return (lines[lines.length - 1] ?? '').trim().split(/\s+/)[5] ?? '';
}

function output(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`${command} exited with ${code}`))));
  });
}
