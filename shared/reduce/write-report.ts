import { writeFile } from 'node:fs/promises';
import pLimit from 'p-limit';
import { EXACT_COMPARISON_LIMIT } from '../compare/compare-runs.js';
import { readCaseLinesFile } from '../compare/run-files.js';
import { recordRunHistory } from '../history/write-history.js';
import type { ObjectStore } from '../ports/object-store.js';
import { reportJson } from '../report/aggregate.js';
import { caseLines } from '../report/cases-jsonl.js';
import { keyStatistics } from '../report-render/html/key-statistics.js';
import { renderHtml } from '../report-render/html.js';
import { AgreementTally } from '../report/judge-agreement.js';
import { CorrectionTally, holdsHumanVerdicts } from '../report/corrected-estimates.js';
import { writeJudgmentsQrels } from '../report/judgments-qrels.js';
import { renderMarkdown } from '../report-render/markdown.js';
import { minAgreementOf, withAgreement } from '../report/report-agreement.js';
import { withJudgeRanking } from '../report/judge-ranking.js';
import { leaderboardOptionsOf, withLeaderboards } from '../report/report-leaderboards.js';
import { readJsonWith } from '../schema/parse-json-with.js';
import type { CaseLine, Report } from '../schema/report.js';
import { attemptUsageSchema, caseResultSchema, type Manifest } from '../schema/run-records.js';
import { compareWithBaseline, comparisonTarget, comparisonReads } from '../compare/baselines.js';
import { compareColumnsWithBaseline } from '../compare/column-comparison.js';
import { EXCERPT_PER_METRIC, excerptCaseIds } from './light-report-cases.js';
import { budgetReached } from '../worker/judge-ceiling.js';
import { withPrecomputedIntervals, type MeanIntervals } from '../report/precomputed-intervals.js';
import type { IntervalSource } from '../report/metric-statistics.js';
import { reportFromPartials } from '../report/partials-report.js';
import type { RangePartial } from '../report/range-partial.js';
import { runKeys } from '../run/run-identity.js';
import { batchKeys } from '../schema/batch-request.js';
import { recordReportedRun, suiteRunOf } from '../run/suite-runs.js';
import { runConfigOf } from '../run/stored-config.js';
import { engineRegressions } from '../canaries/canary-section.js';
import type { CanaryReport } from '../schema/canary-report.js';
import { canaryOfRun, isCanaryAttemptKey } from './canary-records.js';
import { enginesLeftOut, unpairedComparison } from '../compare/unpaired-comparison.js';

export const REPORT_FILES = ['report.json', 'report.md', 'report.html', 'cases.jsonl', 'judgments.qrels'] as const;

export interface AggregatedRun {
  readonly manifest: Manifest;
  /** The run's distinct case ids in code-unit order. */
  readonly sortedCaseIds: readonly string[];
  readonly partials: readonly RangePartial[];
  /** A local file holding cases.jsonl, written in case-id order. */
  readonly casesPath: string;
  /** Every line of cases.jsonl, kept only for runs of at most FULL_HTML_CASE_LIMIT cases. */
  readonly lines: readonly CaseLine[] | undefined;
  /** Computes the statistics' bootstrap intervals in one batch (the embedded CLI: on its threads); else one after another here. */
  readonly intervals?: MeanIntervals;
}

/**
 * The last step of a reduce: the report from the partials, the comparison
 * with the suite's baseline (baselines.ts; from the columns for a run of more
 * than EXACT_COMPARISON_LIMIT cases, column-comparison.ts), and the report files written,
 * with `reports/<suite>/latest.json` pointed at them unless the suite has a
 * newer reported run (suite-runs.ts), and the run added to the suite's
 * history (shared/history/write-history.ts). cases.jsonl is uploaded
 * from its local file as a stream; report.html lists every case up to
 * FULL_HTML_CASE_LIMIT cases and an excerpt above (light-report-cases.ts).
 * Reading cases.jsonl back once, it writes judgments.qrels and counts the
 * judges' agreement with the human labels for the report (judge-agreement.ts),
 * as reportInOnePass does from the records.
 */
export async function writeRunReport(store: ObjectStore, run: AggregatedRun): Promise<{ report: Report; keys: string[] }> {
  const { manifest } = run;
  const { run: attemptUsage, canary: canaryAttemptUsage } = await readAttemptUsage(store, manifest.run_id);
  const reached = await budgetReached(store, manifest.run_id);
  const build = (intervalOf?: IntervalSource): Report =>
    reportFromPartials(manifest, run.sortedCaseIds, run.partials, attemptUsage, reached, intervalOf);
  const built = run.intervals === undefined ? build() : await withPrecomputedIntervals(build, run.intervals);
  const plain = { ...built, ...inputErrorWarnings(manifest) };
  const target = await comparisonTarget(store, manifest);
  const config = runConfigOf(manifest);
  const compared =
    run.sortedCaseIds.length > EXACT_COMPARISON_LIMIT
      ? await compareColumnsWithBaseline(store, { report: plain, partials: run.partials, sortedCaseIds: run.sortedCaseIds }, target, {
          adjustment: config.run.p_value_adjustment.baseline,
        })
      : target === undefined
        ? undefined
        : // Only the headline metrics of each line (and the judges' twins that correct them) are read back: the comparison needs no more.
          await compareWithBaseline(
            store,
            { report: plain, cases: run.lines ?? (await currentLines(run.casesPath, new Set(comparisonReads(plain)))) },
            target,
            {
              minLabelled: config.run.corrected_estimates.min_labelled,
              adjustment: config.run.p_value_adjustment.baseline,
            },
          );
  // judgments.qrels and the judges' agreement with the human labels come from one read of cases.jsonl;
  // a run without judges (ground truth only) has neither, and its cases.jsonl is not read again.
  const qrelsPath = `${run.casesPath}.qrels`;
  const tally = new AgreementTally();
  const correction = new CorrectionTally();
  if (withoutJudges(manifest)) await writeFile(qrelsPath, '');
  else
    await writeJudgmentsQrels(
      run.casesPath,
      qrelsPath,
      (line) => {
        tally.add(line);
        correction.add(line);
      },
      // Human verdicts are corrected by the answer judges' ratings of every case, graded by a relevance judge or not.
      { everyLine: holdsHumanVerdicts(plain) },
    );
  const settings = { level: config.run.corrected_estimates.level, minLabelled: config.run.corrected_estimates.min_labelled };
  const corrected = correction.estimates(settings);
  const differences = correction.differences(settings);
  const withComparison =
    compared === undefined ? plain : withComparisonWarnings({ ...plain, comparison: compared.comparison }, compared.baselineEngines);
  const withCorrection =
    corrected === undefined
      ? withComparison
      : { ...withComparison, corrected, ...(differences.length === 0 ? {} : { corrected_differences: differences }) };
  const report = withCanaries(
    withLeaderboards(
      withJudgeRanking(withAgreement(withCorrection, tally.agreement(), minAgreementOf(manifest))),
      run.partials.map((partial) => partial.columns),
      leaderboardOptionsOf(manifest),
    ),
    await canaryOfRun(
      store,
      manifest,
      compared?.comparison.baseline_run_id ?? target?.runId,
      compared?.comparison.regressions ?? [],
      canaryAttemptUsage,
    ),
  );
  const comparison =
    report.comparison === undefined
      ? undefined
      : {
          baseline_run_id: report.comparison.baseline_run_id,
          ...(report.comparison.adjustment === undefined ? {} : { adjustment: report.comparison.adjustment }),
          engines: report.comparison.engines,
          per_query: compared?.perQuery ?? [],
        };
  const html =
    run.lines !== undefined
      ? renderHtml(report, run.lines, comparison === undefined ? {} : { comparison })
      : renderHtml(report, await excerptLines(store, run, report), {
          ...(comparison === undefined ? {} : { comparison: { ...comparison, per_query: largestDeltas(comparison.per_query) } }),
          excerpt: { totalCases: run.sortedCaseIds.length, perMetric: EXCERPT_PER_METRIC },
        });
  const keys: string[] = [];
  for (const [name, body] of [
    ['report.json', reportJson(report)],
    ['report.md', renderMarkdown(report)],
    ['report.html', html],
  ] as const) {
    const key = runKeys.report(manifest.suite, manifest.run_id, name);
    await store.put(key, body);
    keys.push(key);
  }
  const casesKey = runKeys.report(manifest.suite, manifest.run_id, 'cases.jsonl');
  await store.upload(casesKey, run.casesPath, { etag: false });
  keys.push(casesKey);
  // Beside cases.jsonl, whatever the judges graded, as qrels (empty when no retrieval judge ran).
  const qrelsKey = runKeys.report(manifest.suite, manifest.run_id, 'judgments.qrels');
  await store.upload(qrelsKey, qrelsPath, { etag: false });
  keys.push(qrelsKey);
  // latest.json moves only forward in run time: a late report of an older run leaves it where it is.
  await recordReportedRun(store, manifest.suite, suiteRunOf(manifest));
  // The suite's history (reports/<suite>/history.json and .html) gets this run's row, its values as report.json has them.
  await recordRunHistory(store, report);
  return { report, keys };
}

/** A run whose config lists no judge at all: only ground-truth metrics, no grade for judgments.qrels or the agreement. */
function withoutJudges(manifest: Manifest): boolean {
  const { judges } = runConfigOf(manifest);
  return judges !== undefined && judges.length === 0;
}

async function currentLines(path: string, metrics: ReadonlySet<string>): Promise<CaseLine[]> {
  const read = await readCaseLinesFile(path, metrics);
  if (!read.ok) throw new Error(`Expected the cases.jsonl just written to read back, but line ${read.error.line}: ${read.error.message}`);
  return read.value;
}

async function excerptLines(store: ObjectStore, run: AggregatedRun, report: Report): Promise<CaseLine[]> {
  const caseIds = excerptCaseIds(run.partials, run.sortedCaseIds, keyStatistics(report));
  const limit = pLimit(32);
  const results = await Promise.all(
    caseIds.map((caseId) =>
      limit(async () => {
        const key = runKeys.result(run.manifest.run_id, caseId);
        const bytes = await store.get(key);
        return bytes === undefined ? undefined : readJsonWith(caseResultSchema, bytes, key);
      }),
    ),
  );
  return caseLines(results.filter((result) => result !== undefined));
}

/** The per-query deltas a large run's page shows: the EXCERPT_PER_METRIC largest drops and gains. */
function largestDeltas<Delta extends { delta: number; case_id: string }>(deltas: readonly Delta[]): Delta[] {
  if (deltas.length <= 2 * EXCERPT_PER_METRIC) return [...deltas];
  const sorted = [...deltas].sort(
    (left, right) => left.delta - right.delta || (left.case_id < right.case_id ? -1 : left.case_id > right.case_id ? 1 : 0),
  );
  return [...sorted.slice(0, EXCERPT_PER_METRIC), ...sorted.slice(-EXCERPT_PER_METRIC)];
}

/**
 * The judge usage no case result holds: the deliveries that ended in a retry
 * (their calls were made, and maybe paid), and what the provider billed for
 * a batch-judged run's lines, counted per job when it was collected (a case
 * replaying an answer counts its judgment, not its tokens).
 */
async function readAttemptUsage(store: ObjectStore, runId: string) {
  const keys: string[] = [];
  for (const prefix of [runKeys.attemptUsagePrefix(runId), batchKeys.usagePrefix(runId)])
    for await (const key of store.list(prefix)) keys.push(key);
  const usage = { run: [] as AttemptUsage[], canary: [] as AttemptUsage[] };
  for (const key of keys.sort()) {
    const bytes = await store.get(key);
    // A canary case's retried deliveries are the canary's cost, reported with it (canary-records.ts).
    if (bytes !== undefined) usage[isCanaryAttemptKey(runId, key) ? 'canary' : 'run'].push(readJsonWith(attemptUsageSchema, bytes, key));
  }
  return usage;
}

type AttemptUsage = ReturnType<typeof attemptUsageSchema.parse>;

/**
 * The warning of a run whose dataset had input errors: the rows, lines or
 * files they name are in no metric, so the averages are over fewer cases than
 * the dataset holds, and `assay run`, report.md and report.html say so first
 * rather than leave it to the count in `input_errors`.
 */
export function inputErrorWarnings(manifest: Manifest): Pick<Report, 'warnings'> {
  const count = manifest.input_errors;
  if (count === 0) return {};
  const what = count === 1 ? '1 input error: what it names is' : `${count} input errors: what they name is`;
  const first = manifest.first_input_error === undefined ? '' : `the first: ${manifest.first_input_error}; `;
  return {
    warnings: [
      `${manifest.dataset.key} has ${what} in no metric (${first}every one is in the store, at ${runKeys.inputErrors(manifest.run_id)})`,
    ],
  };
}

/**
 * The report with its canary (shared/canaries/canary-section.ts): the
 * regressions the canary put down to a changed judge leave
 * `comparison.regressions`, and each changed judge's sentence joins the
 * warnings, which report.md and report.html show first and `assay run`
 * prints.
 */
function withCanaries(report: Report, canaries: CanaryReport | undefined): Report {
  if (canaries === undefined) return report;
  const comparison =
    report.comparison === undefined
      ? {}
      : { comparison: { ...report.comparison, regressions: engineRegressions(report.comparison.regressions, canaries) } };
  const warnings = [...(report.warnings ?? []), ...canaries.summary];
  return { ...report, ...comparison, ...(warnings.length === 0 ? {} : { warnings }), canaries };
}

/**
 * The report with what its comparison could not see (unpaired-comparison.ts):
 * no case paired at all, or engines on one side only.
 */
function withComparisonWarnings(report: Report, otherEngines: readonly string[]): Report {
  const said = [unpairedComparison(report), enginesLeftOut(report, otherEngines)].filter((text) => text !== undefined);
  return said.length === 0 ? report : { ...report, warnings: [...(report.warnings ?? []), ...said] };
}
