import { Command } from 'commander';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { compareRuns, DEFAULT_COMPARE_OPTIONS, type CompareOptions, type RunFiles } from '../../shared/compare/compare-runs.js';
import { renderComparisonTable } from '../../shared/compare/comparison-table.js';
import { aggregatedMetrics } from '../../shared/compare/compared-metrics.js';
import { parseCasesJsonl, parseReportJson, type ParsedFile } from '../../shared/compare/run-files.js';
import { compareText } from '../../shared/report/ordering.js';
import { compareJsonSchema, type RunComparison } from '../../shared/schema/compare-json.js';
import type { Report } from '../../shared/schema/report.js';
import { renderLeaderboardsText } from '../../shared/report-render/leaderboard-text.js';
import { withRunLeaderboards } from '../../shared/compare/run-leaderboards.js';
import { engineRegressionsOf, withRunCanaries } from '../../shared/compare/run-canaries.js';
import { regressionEvidence } from '../../shared/report-render/regression-text.js';
import { checkedJson } from '../checked-json.js';
import { adjustmentMethod } from '../option-values.js';
import { assertReadableFile } from '../readable-file.js';
import { UsageError } from '../usage-error.js';
import { DEFAULT_MIN_LABELLED } from '../../shared/statistics/prediction-powered-mean.js';
import { MAX_PERMUTATIONS } from '../../shared/schema/work-limits.js';

interface CompareCommandOptions {
  json?: boolean;
  metric?: string[];
  alpha: string;
  minEffect: string;
  failOnRegression?: boolean;
  permutations: string;
  seed: string;
  minLabelled: string;
  adjust: string;
  leaderboardAdjust: string;
}

/**
 * `assay compare A B`: compares two runs' report folders case by case, with
 * a paired randomization test per engine and metric. Exit code 0, or 1 with
 * --fail-on-regression when a metric got significantly worse in B; 2 for a
 * usage error (a missing or invalid file, a bad option, runs without an
 * engine in common).
 */
export function compareCommand(): Command {
  return new Command('compare')
    .description('Compare two runs case by case (B against A) with paired significance tests')
    .argument('<a>', 'report folder of the baseline run (report.json and cases.jsonl)')
    .argument('<b>', 'report folder of the run to compare with it')
    .option('--json', 'print {"engines": {"<engine>": {"<metric>": {"a", "b", "delta", "p_value", "significant", ...}}}}')
    .option('--metric <name>', 'compare this per-case metric (repeatable); default: every metric the reports average', collect)
    .option('--alpha <level>', 'significance level of the randomization test', '0.05')
    .option('--min-effect <delta>', 'smallest |B - A| that counts as significant', '0')
    .option(
      '--adjust <method>',
      'how the p-values are adjusted across every engine × metric compared: holm, benjamini-hochberg or none',
      'holm',
    )
    .option(
      '--leaderboard-adjust <method>',
      "how the p-values of the pairs of B's engines are adjusted in its leaderboards: benjamini-hochberg, holm or none",
      'benjamini-hochberg',
    )
    .option('--fail-on-regression', 'exit 1 when some metric got significantly worse')
    .option('--permutations <count>', `random sign flips of the randomization test, at most ${MAX_PERMUTATIONS}`, '10000')
    .option('--seed <integer>', 'seed of the sign flips and the bootstrap', '42')
    .option(
      '--min-labelled <count>',
      'the fewest cases labelled in both runs a corrected difference is given an interval for',
      String(DEFAULT_MIN_LABELLED),
    )
    .addHelpText(
      'after',
      '\nCases are paired by request_id within each engine; only cases with a number (or a yes/no\n' +
        'rating, yes = 1) in both runs count. p is the two-sided p-value of the paired randomization\n' +
        'test; W/L/T counts the cases where B is above, below or equal to A. Every metric is taken as\n' +
        'higher-is-better, diagnostic counts such as response_tokens too: with --fail-on-regression,\n' +
        'pick the metrics to gate on with --metric.\n\n' +
        'A ground-truth metric whose relevance judge graded both runs (its twin\n' +
        'retrieval/<source>/<judge>/qrels/<metric> in both cases.jsonl), and a human verdict\n' +
        '<scope>/human/<judge>/rating whose answer judge rated both runs, is also compared corrected by the\n' +
        "judge: the judge's difference on every case, the human one on the labelled cases (PPI++), at level\n" +
        '1 - alpha. A row per judge under the metric gives the corrected delta [interval], p and\n' +
        'labelled/all cases; when a judge gives an interval, sig and --fail-on-regression follow it.\n\n' +
        "The deciding p-values of every engine × metric are adjusted together (--adjust; Holm's method by\n" +
        'default, which holds the chance of any false finding at alpha): adj. p stands beside the p it\n' +
        'adjusts, and sig and --fail-on-regression need it below alpha.\n\n' +
        'When B has three engines or more, its leaderboards follow: per headline metric, the engines ranked\n' +
        '(by their corrected means where a judge and human labels allow), every pair tested on the cases\n' +
        'both have, the p-values adjusted across the pairs (--leaderboard-adjust); engines that share a\n' +
        'letter are not told apart.',
    )
    .action(async (folderOfA: string, folderOfB: string, options: CompareCommandOptions) => {
      const compareOptions = parseOptions(options);
      const [a, b] = await Promise.all([readRunFolder(folderOfA), readRunFolder(folderOfB)]);
      assertEnginesShared([folderOfA, a], [folderOfB, b]);
      assertCasesShared([folderOfA, a], [folderOfB, b]);
      const compared = withRunCanaries(compareRuns(a, b, compareOptions), a, b);
      const comparison = withRunLeaderboards(compared, b, {
        alpha: compareOptions.alpha ?? DEFAULT_COMPARE_OPTIONS.alpha,
        minLabelled: compareOptions.minLabelled ?? DEFAULT_MIN_LABELLED,
        method: adjustmentMethod('--leaderboard-adjust', options.leaderboardAdjust),
        metrics: compareOptions.metrics,
      });
      assertMetricsCompared(comparison, compareOptions.metrics ?? [], [a.report, b.report]);
      process.stdout.write(
        options.json === true
          ? `${checkedJson(compareJsonSchema, comparison)}\n`
          : `${renderComparisonTable(comparison)}${canariesText(comparison)}${leaderboardsText(comparison)}`,
      );
      // A regression put down to a changed judge is the judge's, as in a nightly report: it does not fail the gate.
      const worse = engineRegressionsOf(comparison);
      if (options.failOnRegression === true && worse.length > 0) {
        const list = worse.map(
          (regression) =>
            `${regression.engine} ${regression.metric} (${regression.delta.toFixed(4)}, ${regressionEvidence(regression, comparison.adjustment)})`,
        );
        throw new UsageError(`${worse.length} ${worse.length === 1 ? 'metric' : 'metrics'} got significantly worse: ${list.join(', ')}`, 1);
      }
    });
}

function parseOptions(options: CompareCommandOptions): CompareOptions {
  const alpha = Number(options.alpha);
  if (options.alpha.trim() === '' || !(alpha > 0 && alpha < 1))
    throw new UsageError(`Expected --alpha to be a number between 0 and 1 (exclusive), got "${options.alpha}"`);
  const minEffect = Number(options.minEffect);
  if (options.minEffect.trim() === '' || !(minEffect >= 0) || !Number.isFinite(minEffect)) {
    throw new UsageError(`Expected --min-effect to be a number from 0 and up, got "${options.minEffect}"`);
  }
  const permutations = Number(options.permutations);
  if (!/^\d+$/.test(options.permutations) || !Number.isSafeInteger(permutations) || permutations < 1 || permutations > MAX_PERMUTATIONS) {
    throw new UsageError(`Expected --permutations to be an integer from 1 to ${MAX_PERMUTATIONS}, got "${options.permutations}"`);
  }
  const seed = Number(options.seed);
  if (!/^\d+$/.test(options.seed) || seed > 2 ** 32 - 1)
    throw new UsageError(`Expected --seed to be an integer from 0 to 4294967295, got "${options.seed}"`);
  const minLabelled = Number(options.minLabelled);
  if (!/^\d+$/.test(options.minLabelled) || minLabelled < 3)
    throw new UsageError(`Expected --min-labelled to be an integer from 3 and up, got "${options.minLabelled}"`);
  const adjustment = adjustmentMethod('--adjust', options.adjust);
  return { metrics: options.metric, alpha, minEffect, permutations, seed, minLabelled, adjustment };
}

/**
 * The judges' canaries under the comparison, after a blank line, when both
 * runs judged the same canary set: each changed judge's sentence, or that
 * none changed; nothing without them.
 */
function canariesText(comparison: RunComparison): string {
  const canaries = comparison.canaries;
  if (canaries === undefined) return '';
  const judges = Object.keys(canaries.judges);
  const lines =
    canaries.summary.length > 0
      ? canaries.summary
      : [`no judge changed: ${judges.length === 0 ? 'no judge' : judges.join(', ')} judged the canary as in A`];
  return `\njudge canaries of B against A:\n${lines.map((line) => `  ${line}\n`).join('')}`;
}

/** B's leaderboards under the comparison, after a blank line; nothing without them. */
function leaderboardsText(comparison: RunComparison): string {
  const boards = comparison.leaderboards ?? [];
  return boards.length === 0 ? '' : `\n${renderLeaderboardsText(boards, 'engine', 'leaderboard of B')}`;
}

/**
 * Cases are paired within an engine, so runs without an engine in common
 * compare nothing: say that, with each run's engines, before any metric is
 * blamed for it.
 */
function assertEnginesShared(...runs: [string, RunFiles][]): void {
  const engines = runs.map(([, run]) => [...new Set(run.cases.map((line) => line.engine))].sort(compareText));
  const [first = [], second = []] = engines;
  if (first.some((engine) => second.includes(engine))) return;
  const listed = runs.map(([folder], index) => `${folder} has ${engines[index]?.join(', ') || 'no case'}`);
  throw new UsageError(`the two runs share no engine, and cases are compared engine by engine: ${listed.join('; ')}`);
}

/**
 * Runs that share engines but no case (no request_id in both, engine by
 * engine: two datasets) compare nothing, and a comparison of nothing finds
 * no regression: say so, with some request ids of each, rather than print an
 * empty table and pass --fail-on-regression.
 */
function assertCasesShared(first: [string, RunFiles], second: [string, RunFiles]): void {
  const paired = new Set(first[1].cases.map((line) => `${line.engine}\u0000${line.request_id}`));
  if (second[1].cases.some((line) => paired.has(`${line.engine}\u0000${line.request_id}`))) return;
  const listed = [first, second].map(([folder, run]) => {
    const ids = [...new Set(run.cases.map((line) => line.request_id))];
    return `${folder} has ${ids.slice(0, 3).join(', ')}${ids.length > 3 ? `, ... (${ids.length})` : ''}`;
  });
  throw new UsageError(
    `the two runs share no case, and cases are paired by request_id within each engine: ${listed.join('; ')}; compare two runs of one dataset`,
  );
}

/** A --metric that no engine has in both runs is most likely a typo: say so rather than print nothing. */
function assertMetricsCompared(comparison: RunComparison, requested: readonly string[], reports: readonly Report[]): void {
  const compared = new Set(Object.values(comparison.engines).flatMap((metrics) => Object.keys(metrics)));
  const missing = requested.filter((metric) => !compared.has(metric));
  if (missing.length === 0) return;
  const available = aggregatedMetrics(reports);
  throw new UsageError(
    `No case has ${missing.map((metric) => `"${metric}"`).join(', ')} in both runs; the metrics the reports average are: ${available.length > 0 ? available.join(', ') : 'none'}`,
  );
}

async function readRunFolder(folder: string): Promise<RunFiles> {
  const info = await stat(folder).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      error.code === 'ENOENT'
        ? `The report folder ${folder} does not exist`
        : `Cannot read the report folder ${folder} (${error.code ?? 'unknown error'})`,
    );
  });
  if (!info.isDirectory()) throw new UsageError(`${folder} is not a folder; expected a report folder with report.json and cases.jsonl`);
  const reportPath = join(folder, 'report.json');
  const casesPath = join(folder, 'cases.jsonl');
  await Promise.all([assertReadableFile(reportPath, 'report'), assertReadableFile(casesPath, 'cases')]);
  const [reportText, casesText] = await Promise.all([readFile(reportPath, 'utf8'), readFile(casesPath, 'utf8')]);
  return { report: parsedValue(parseReportJson(reportText), reportPath), cases: parsedValue(parseCasesJsonl(casesText), casesPath) };
}

function parsedValue<Value>(parsed: ParsedFile<Value>, path: string): Value {
  if (parsed.ok) return parsed.value;
  const { line, message } = parsed.error;
  throw new UsageError(`${line === undefined ? path : `${path}:${line}`}: ${message}`);
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
