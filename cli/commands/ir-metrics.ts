import { Command, Option } from 'commander';
import { formatInputError } from '../../shared/schema/format-input-error.js';
import { irMetricsRunJsonSchema } from '../../shared/schema/ir-metrics-json.js';
import { selectMeasures, type SelectedMeasure } from '../../shared/trec/measure-selection.js';
import { readQrels, type Qrels } from '../../shared/trec/qrels.js';
import { scoreRunFile, type RunScore } from '../../shared/trec/score-run-file.js';
import { builtWorker, scoreRunsOnThreads, threadsFor, type ScoreTask } from '../threads/ir-metrics-threads.js';
import { UsageError } from '../usage-error.js';
import { assertReadableFile } from '../readable-file.js';

interface IrMetricsOptions {
  perQuery?: boolean;
  complete?: boolean;
  summary: boolean;
  level: string;
  measure: string[];
  json?: boolean;
  gain: 'linear' | 'exponential';
}

/**
 * `assay ir-metrics QRELS RUN...`: a drop-in for trec_eval on its common
 * measures, with the same options, output format and numbers. Several runs are
 * evaluated in one process against qrels read once, and print one after
 * another exactly as trec_eval run once per run file would.
 */
export function irMetricsCommand(): Command {
  return new Command('ir-metrics')
    .description('Evaluate TREC runs against qrels exactly as trec_eval does')
    .argument('<qrels>', 'judgments: "qid iter docno grade" per line')
    .argument('<runs...>', 'results: "qid Q0 docno rank score tag" per line; one file per run')
    .option('-q, --per-query', 'print the measures of every topic, then the summary')
    .option('-c, --complete', 'average over all qrels topics; topics missing from the run score 0')
    .option('-n, --no-summary', 'leave out the summary rows (with -q)')
    .option('-l, --level <level>', 'lowest grade that counts as relevant', '1')
    .option('-m, --measure <measure>', 'measure to compute, trec_eval style (P.5,10 ndcg_cut.10 map ...); repeatable', collect, [])
    .option(
      '--json',
      'print {"per_query": {...}, "all": {...}} with full double precision; with several runs, one such object per run file, keyed by its path',
    )
    .addOption(
      new Option('--gain <scheme>', 'NDCG gain: linear (trec_eval) or exponential (2^grade - 1)')
        .choices(['linear', 'exponential'])
        .default('linear'),
    )
    .addHelpText(
      'after',
      '\nMeasures: num_q num_ret num_rel num_rel_ret map map_cut.K P.K recall.K ndcg ndcg_cut.K\n' +
        'recip_rank Rprec success.K runid; nicknames: official (default), all_trec.\n' +
        'Without -c, a qrels topic missing from the run is skipped (as trec_eval 9.x).\n' +
        'Several runs print one after another, as trec_eval run once per run file.',
    )
    .action(async (qrelsPath: string, runPaths: string[], options: IrMetricsOptions) => {
      await runIrMetrics(qrelsPath, runPaths, options);
    });
}

async function runIrMetrics(qrelsPath: string, runPaths: readonly string[], options: IrMetricsOptions): Promise<void> {
  const relevanceLevel = Number(options.level);
  if (!Number.isInteger(relevanceLevel) || relevanceLevel < 0) {
    throw new UsageError(`Expected -l to be an integer from 0 and up, got "${options.level}"`);
  }
  const selection = selectMeasures(options.measure);
  if (!selection.ok) throw new UsageError(selection.error);
  const repeated = runPaths.find((path, index) => runPaths.indexOf(path) !== index);
  if (options.json && runPaths.length > 1 && repeated !== undefined) {
    throw new UsageError(`Run file "${repeated}" is given twice: --json keys each run by its path, so give each file once`);
  }
  await Promise.all([assertReadableFile(qrelsPath, 'qrels'), ...runPaths.map((path) => assertReadableFile(path, 'run'))]);
  const evaluationOptions = { relevanceLevel, gain: options.gain, complete: options.complete === true };
  const output = { json: options.json === true, perTopic: options.perQuery === true, summary: options.summary };
  const task = { qrelsPath, measures: options.measure, evaluation: evaluationOptions, output };
  const jsonByRun: (readonly [string, string])[] = [];
  let position = 0;
  for await (const score of scoresOf(task, runPaths, selection.value)) {
    const runPath = runPaths[position++] as string;
    if (!score.ok)
      throw new UsageError(runPaths.length > 1 && !score.error.startsWith(runPath) ? `${runPath}: ${score.error}` : score.error);
    // Text is printed run by run, as trec_eval called once per run would.
    if (options.json) jsonByRun.push([runPath, checkedRunJson(score.value)]);
    else process.stdout.write(score.value);
  }
  // Written whole, once every run is evaluated, so a failing run leaves no partial JSON.
  const [single] = jsonByRun;
  if (single !== undefined) process.stdout.write(jsonByRun.length === 1 ? single[1] : keyedByPath(jsonByRun));
}

/**
 * Each run's score in the order given: with the built CLI and several runs,
 * on this thread and worker threads, a core each; else one after another in
 * this thread. Either way the qrels are read once.
 */
async function* scoresOf(task: ScoreTask, runPaths: readonly string[], measures: readonly SelectedMeasure[]): AsyncGenerator<RunScore> {
  const here = {
    qrels: async (): Promise<Qrels> => {
      const read = await readQrels(task.qrelsPath);
      if (!read.ok) throw new UsageError(formatInputError(read.error));
      return read.value;
    },
    score: (qrels: Qrels, runPath: string): Promise<RunScore> => scoreRunFile(qrels, runPath, measures, task.evaluation, task.output),
  };
  const worker = builtWorker(import.meta.url);
  const threads = threadsFor(runPaths.length);
  if (worker !== undefined && threads > 1) {
    yield* scoreRunsOnThreads(worker, task, runPaths, threads, here);
    return;
  }
  const qrels = await here.qrels();
  for (const runPath of runPaths) yield await here.score(qrels, runPath);
}

/**
 * One run's `--json` text, checked against its schema. It is printed as
 * written (shared/trec/format.ts) rather than from the parsed value, whose
 * object would put integer-like topic ids first, out of the run's order.
 */
function checkedRunJson(text: string): string {
  irMetricsRunJsonSchema.parse(JSON.parse(text));
  return text;
}

/** `{"<run path>": <that run's object>, ...}`, each object indented one level further. */
function keyedByPath(objects: readonly (readonly [string, string])[]): string {
  const members = objects.map(([path, json]) => `  ${JSON.stringify(path)}: ${json.trimEnd().replaceAll('\n', '\n  ')}`);
  return `{\n${members.join(',\n')}\n}\n`;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
