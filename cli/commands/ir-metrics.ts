import { Command, Option } from 'commander';
import { formatInputError } from '../../shared/schema/input-error.js';
import { evaluateRun } from '../../shared/trec/evaluate.js';
import { formatTrecJson, formatTrecText } from '../../shared/trec/format.js';
import { selectMeasures } from '../../shared/trec/measure-selection.js';
import { readQrels } from '../../shared/trec/qrels.js';
import { readRun } from '../../shared/trec/run.js';
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
 * `assay ir-metrics QRELS RUN`: a drop-in for trec_eval on its common measures,
 * with the same options, output format and numbers.
 */
export function irMetricsCommand(): Command {
  return new Command('ir-metrics')
    .description('Evaluate a TREC run against qrels exactly as trec_eval does')
    .argument('<qrels>', 'judgments: "qid iter docno grade" per line')
    .argument('<run>', 'results: "qid Q0 docno rank score tag" per line')
    .option('-q, --per-query', 'print the measures of every topic, then the summary')
    .option('-c, --complete', 'average over all qrels topics; topics missing from the run score 0')
    .option('-n, --no-summary', 'leave out the summary rows (with -q)')
    .option('-l, --level <level>', 'lowest grade that counts as relevant', '1')
    .option('-m, --measure <measure>', 'measure to compute, trec_eval style (P.5,10 ndcg_cut.10 map ...); repeatable', collect, [])
    .option('--json', 'print {"per_query": {...}, "all": {...}} with full double precision')
    .addOption(
      new Option('--gain <scheme>', 'NDCG gain: linear (trec_eval) or exponential (2^grade - 1)')
        .choices(['linear', 'exponential'])
        .default('linear'),
    )
    .addHelpText(
      'after',
      '\nMeasures: num_q num_ret num_rel num_rel_ret map map_cut.K P.K recall.K ndcg ndcg_cut.K\n' +
        'recip_rank Rprec success.K runid; nicknames: official (default), all_trec.\n' +
        'Without -c, a qrels topic missing from the run is skipped (as trec_eval 9.x).',
    )
    .action(async (qrelsPath: string, runPath: string, options: IrMetricsOptions) => {
      process.stdout.write(await runIrMetrics(qrelsPath, runPath, options));
    });
}

async function runIrMetrics(qrelsPath: string, runPath: string, options: IrMetricsOptions): Promise<string> {
  const relevanceLevel = Number(options.level);
  if (!Number.isInteger(relevanceLevel) || relevanceLevel < 0) {
    throw new UsageError(`Expected -l to be an integer from 0 and up, got "${options.level}"`);
  }
  const selection = selectMeasures(options.measure);
  if (!selection.ok) throw new UsageError(selection.error);
  await Promise.all([assertReadableFile(qrelsPath, 'qrels'), assertReadableFile(runPath, 'run')]);
  const [qrels, run] = await Promise.all([readQrels(qrelsPath), readRun(runPath)]);
  if (!qrels.ok) throw new UsageError(formatInputError(qrels.error));
  if (!run.ok) throw new UsageError(formatInputError(run.error));
  const result = evaluateRun(qrels.qrels, run.run, selection.measures, {
    relevanceLevel,
    gain: options.gain,
    complete: options.complete === true,
  });
  if (!result.ok) throw new UsageError(result.error);
  if (options.json) return formatTrecJson(result.evaluation, { perTopic: true, summary: true });
  return formatTrecText(result.evaluation, { perTopic: options.perQuery === true, summary: options.summary });
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
