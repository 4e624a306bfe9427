import { Command } from 'commander';
import { readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { buildAgreementReport } from '../../shared/agreement/agreement-report.js';
import { rankJudgeQrels, type JudgeQrels } from '../../shared/agreement/judge-ranking.js';
import { parseReportJson } from '../../shared/compare/run-files.js';
import { renderJudgeRankingText } from '../../shared/report-render/judge-ranking-text.js';
import { renderAgreementText } from '../../shared/report-render/agreement-text.js';
import type { NamedRun } from '../../shared/agreement/system-agreement.js';
import { RunNames } from '../../shared/trec-collection/run-names.js';
import type { Measure } from '../../shared/metrics/registry.js';
import { terminalText } from '../../shared/report-render/terminal-text.js';
import { agreementReportSchema, judgeRankingReportSchema } from '../../shared/schema/agreement.js';
import { formatInputError } from '../../shared/schema/input-error.js';
import { MAX_RESAMPLES } from '../../shared/schema/work-limits.js';
import { selectMeasures } from '../../shared/trec/measure-selection.js';
import { readQrels, type Qrels } from '../../shared/trec/qrels.js';
import { readRun } from '../../shared/trec/run.js';
import { checkedJson } from '../checked-json.js';
import { adjustmentMethod } from '../option-values.js';
import { DEFAULT_LEADERBOARD_ADJUSTMENT } from '../../shared/schema/p-value-adjustment.js';
import { assertReadableFile } from '../readable-file.js';
import { UsageError } from '../usage-error.js';

interface AgreementOptions {
  human?: string;
  judge: string[];
  judgeCost: string[];
  run: string[];
  measure: string[];
  level: string;
  confidence: string;
  minLabelled: string;
  json?: boolean;
  seed: string;
  resamples: string;
  adjust: string;
}

/**
 * `assay agreement --human QRELS --judge QRELS [--run RUN]...`: how far a
 * judge's relevance labels agree with people's, label by label (kappa) and in
 * the system rankings the two label sets produce (Kendall's tau, Spearman's rho).
 */
export function agreementCommand(): Command {
  return new Command('agreement')
    .description("Measure a judge's relevance labels against human qrels: kappa per label, tau between system rankings")
    .option('--human <qrels>', 'the reference judgments (required): "qid iter docno grade" per line')
    .option(
      '--judge <qrels>',
      "the judgments to assess (required), in the same format; repeat it (NAME=PATH, PATH a qrels file or an assay run's report folder) to rank several judges",
      collect,
      [],
    )
    .option(
      '--judge-cost <name=amount>',
      "what a judge's labels cost (repeatable), for the ranking per unit of cost; a report folder's judge_cost.total otherwise",
      collect,
      [],
    )
    .option('--run <run>', 'a TREC run to rank under both qrels (repeatable; two or more for tau)', collect, [])
    .option(
      '-m, --measure <measure>',
      'a trec_eval measure (ndcg_cut.10, map, P.10, ...), repeatable: the first ranks the runs; each is corrected by the judge (default: ndcg_cut.10)',
      collect,
      [],
    )
    .option('-l, --level <level>', 'lowest grade that counts as relevant, for the binary statistics and the measure', '1')
    .option('--json', 'print the report as JSON')
    .option('--seed <integer>', 'seed of the bootstrap resampling', '0')
    .option('--resamples <count>', `bootstrap resamples of each 95% interval, at most ${MAX_RESAMPLES}`, '1000')
    .option('--confidence <level>', "the corrected estimates' confidence level, between 0 and 1", '0.95')
    .option('--min-labelled <count>', 'the fewest topics with human labels a corrected interval is given for', '8')
    .option(
      '--adjust <method>',
      "how the p-values of the leaderboard's pairs of runs are adjusted: benjamini-hochberg, holm or none",
      DEFAULT_LEADERBOARD_ADJUSTMENT,
    )
    .addHelpText(
      'after',
      '\nPairs are the (topic, document) pairs labelled in both qrels; the grades are the\n' +
        'categories of kappa. Runs are named by their tag (<file>:<tag> when an earlier run\n' +
        'has the same tag) and scored as `assay ir-metrics` does without -c. Intervals are\n' +
        'percentile bootstraps: kappas resample the pairs, tau resamples the topics. With runs, each\n' +
        "measure's mean over the topics the judge qrels score is also corrected by the human labels of\n" +
        'those that have them (prediction-powered, PPI++), per run and per pair of runs (a minus b).\n\n' +
        'With several --judge, each judge gets its report, and the judges are ranked by the width of the\n' +
        "corrected interval each gives the first measure over the runs' topics (the human labels a judge\n" +
        'is worth), and by the human labels gained per unit of cost (--judge-cost, or the judge_cost of\n' +
        "an assay run's report.json beside its judgments.qrels).\n\n" +
        'With three runs or more, each measure gets a leaderboard: the runs ranked by their corrected\n' +
        'means, every pair tested by its corrected difference on the topics both are scored on, the\n' +
        'p-values adjusted across the pairs (--adjust, alpha 1 - --confidence); runs that share a letter\n' +
        'are not told apart.',
    )
    .action(async (options: AgreementOptions) => {
      // Checked here rather than as commander's required options, whose error exits 1, not 2.
      if (options.human === undefined || options.judge.length === 0) {
        throw new UsageError(
          `Expected ${options.human === undefined ? '--human <qrels>, the reference judgments' : '--judge <qrels>, the judgments to assess'}`,
        );
      }
      const level = parseInteger(options.level, '-l', 0);
      const resamples = parseInteger(options.resamples, '--resamples', 1, MAX_RESAMPLES);
      const seed = parseInteger(options.seed, '--seed', 0);
      if (seed > 2 ** 32 - 1) throw new UsageError(`Expected --seed to be an integer from 0 to 4294967295, got "${options.seed}"`);
      const measures = (options.measure.length === 0 ? ['ndcg_cut.10'] : options.measure).map(oneMeasure);
      const confidence = Number(options.confidence);
      if (!(confidence > 0 && confidence < 1))
        throw new UsageError(`Expected --confidence to be a level between 0 and 1 such as 0.95, got "${options.confidence}"`);
      const minLabelled = parseInteger(options.minLabelled, '--min-labelled', 3);
      const common = {
        measure: measures[0] as Measure,
        measures,
        correction: { level: confidence, minLabelled },
        leaderboardAdjustment: adjustmentMethod('--adjust', options.adjust),
        measureOptions: { relevanceLevel: level, gain: 'linear' as const },
        resamples,
        seed,
      };
      if (options.judge.length > 1 || options.judgeCost.length > 0) {
        const [human, judges, runs] = await Promise.all([
          readQrelsFile(options.human, 'human qrels'),
          readJudges(options.judge, options.judgeCost),
          readRunFiles(options.run),
        ]);
        const ranked = rankJudgeQrels(judges, { human, runs, ...common });
        if (!ranked.ok) throw new UsageError(ranked.error);
        process.stdout.write(
          options.json === true
            ? `${checkedJson(judgeRankingReportSchema, ranked.value)}\n`
            : terminalText(renderJudgeRankingText(ranked.value)),
        );
        return;
      }
      const [human, judge, runs] = await Promise.all([
        readQrelsFile(options.human, 'human qrels'),
        readQrelsFile(options.judge[0] as string, 'judge qrels'),
        readRunFiles(options.run),
      ]);
      const result = buildAgreementReport({
        human,
        judge,
        judgeName: basename(options.judge[0] as string).replace(/\.[^.]*$/, ''),
        runs,
        ...common,
      });
      if (!result.ok) throw new UsageError(result.error);
      process.stdout.write(
        options.json === true ? `${checkedJson(agreementReportSchema, result.value)}\n` : terminalText(renderAgreementText(result.value)),
      );
    });
}

function parseInteger(text: string, option: string, minimum: number, maximum?: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < minimum || (maximum !== undefined && value > maximum)) {
    const range = maximum === undefined ? `from ${minimum} and up` : `from ${minimum} to ${maximum}`;
    throw new UsageError(`Expected ${option} to be an integer ${range}, got "${text}"`);
  }
  return value;
}

/** The measure that ranks the runs: one trec_eval measure averaged over topics (not a count, not a list). */
function oneMeasure(name: string): Measure {
  const selection = selectMeasures([name]);
  if (!selection.ok) throw new UsageError(selection.error);
  const measures = selection.value.flatMap((selected) =>
    selected.kind === 'query' && selected.measure.aggregate === 'mean' ? [selected.measure] : [],
  );
  if (measures.length !== 1 || selection.value.length !== 1) {
    throw new UsageError(`Expected -m to name one averaged measure such as ndcg_cut.10, map or P.10, got "${name}"`);
  }
  return measures[0] as Measure;
}

async function readQrelsFile(path: string, role: string): Promise<Qrels> {
  await assertReadableFile(path, role);
  const result = await readQrels(path);
  if (!result.ok) throw new UsageError(formatInputError(result.error));
  return result.value;
}

async function readRunFiles(paths: readonly string[]): Promise<NamedRun[]> {
  await Promise.all(paths.map((path) => assertReadableFile(path, 'run')));
  const names = new RunNames();
  const runs: NamedRun[] = [];
  for (const path of paths) {
    const result = await readRun(path);
    if (!result.ok) throw new UsageError(formatInputError(result.error));
    runs.push({ name: names.nameFor(result.value.runId, path), run: result.value });
  }
  return runs;
}

/**
 * The --judge values as named qrels: `NAME=PATH` or `PATH` (named by its file
 * name without the extension, or its folder's name). A folder is an assay
 * run's report folder: its judgments.qrels, and the cost of its report.json's
 * judge_cost.total. --judge-cost NAME=AMOUNT gives or overrides a cost.
 */
async function readJudges(values: readonly string[], costs: readonly string[]): Promise<JudgeQrels[]> {
  const given = new Map<string, number>();
  for (const value of costs) {
    const match = /^(.+)=(.+)$/.exec(value);
    const amount = Number(match?.[2]);
    if (match === null || !(amount >= 0) || !Number.isFinite(amount))
      throw new UsageError(`Expected --judge-cost NAME=AMOUNT with an amount from 0 up, got "${value}"`);
    given.set(match[1] as string, amount);
  }
  const judges: JudgeQrels[] = [];
  for (const value of values) {
    const named = /^([^=/\\]+)=(.+)$/.exec(value);
    const path = named?.[2] ?? value;
    const folder = (await stat(path).catch(() => undefined))?.isDirectory() === true;
    const name = named?.[1] ?? basename(path).replace(folder ? /$/ : /\.[^.]*$/, '');
    if (judges.some((judge) => judge.name === name)) throw new UsageError(`Two judges are named ${name}: name them with --judge NAME=PATH`);
    const qrels = await readQrelsFile(folder ? join(path, 'judgments.qrels') : path, `judge qrels of ${name}`);
    const fromReport = folder ? await reportCost(join(path, 'report.json')) : undefined;
    const cost = given.get(name) ?? fromReport?.total ?? null;
    judges.push({ name, qrels, cost, ...(fromReport === undefined || given.has(name) ? {} : { currency: fromReport.currency }) });
  }
  const unknown = [...given.keys()].filter((name) => !judges.some((judge) => judge.name === name));
  if (unknown.length > 0)
    throw new UsageError(
      `--judge-cost names ${unknown.join(', ')}, which no --judge is named (judges: ${judges.map((judge) => judge.name).join(', ')})`,
    );
  return judges;
}

/** A report folder's judge cost, when its report.json has one with a total. */
async function reportCost(path: string): Promise<{ total: number; currency: string } | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const report = parseReportJson(text);
  if (!report.ok) throw new UsageError(`${path}: ${report.error.message}`);
  const cost = report.value.judge_cost;
  return cost === undefined || cost.total === null ? undefined : { total: cost.total, currency: cost.currency };
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
