import type { Report } from '../schema/report.js';
import type { Manifest } from '../schema/run-records.js';
import { caseOutcomes, type CaseRecords } from './case-outcomes.js';
import { judgeSpendFields } from './judge-spend-report.js';
import { caseLines } from './cases-jsonl.js';
import { AgreementTally } from './judge-agreement.js';
import { correctionSettingsOf, CorrectionTally } from './corrected-estimates.js';
import { totalJudgeUsage } from './judge-usage.js';
import { compareFailedCases, judgeFailedCaseCount } from './judge-failures.js';
import { engineStatistics } from './metric-statistics.js';
import { compareText } from './ordering.js';
import { withJudgeRanking } from './judge-ranking.js';
import { leaderboardOptionsOf, resultsSegment, withLeaderboards } from './report-leaderboards.js';
import { minAgreementOf, withAgreement } from './report-agreement.js';

export type ReportInput = CaseRecords & {
  /** The run's judge-budget-reached marker exists (judge_budget.reached). */
  readonly budgetReached?: boolean;
};

/**
 * The report of a run from all its records at once: a pure function (no clock,
 * no randomness), so the same records give the same report, bit for bit,
 * whatever order they arrive in. It is the definition the reducer is held to:
 * the reducer builds the same report range by range (partials-report.ts), and
 * the tests compare the two; the reducer itself never calls this.
 *
 * Cases:
 * - `total` is the run's distinct case ids (the manifest's case count); `evaluated` the cases with a
 *   result; `failed` the cases with a failure and no result (a result wins
 *   over a failure of the same case: a redrive succeeded); `missing` the
 *   case ids with neither. evaluated + failed + missing = total always:
 *   records that would break it (a case outside the run's case ids, a record
 *   of another run, as many case ids as the manifest does not count) throw;
 *   a case id listed twice counts once, and a second record of a case is
 *   ignored. `judge_failed` counts the evaluated cases where some judge's
 *   `<scope>/<source>/<judge>/error_message` is a text (judge-failures.ts):
 *   they stay evaluated, their other metrics count, and that judge's
 *   statistics leave them out.
 * - `failed_cases` lists the failed cases (no `judge`) and, per evaluated
 *   case and judge whose judgment ended in error, one entry with the judge,
 *   the engines and the first error; by case id, then a whole failure first,
 *   then by judge id (compareFailedCases). `missing_cases` is sorted by case
 *   id. Neither is capped.
 *
 * Engines: the manifest's engines and any engine found in a result, each
 * with statistics over the evaluated cases that have the metric. For a
 * metric M:
 * - numeric M: `M/average` = mean over the cases where M is a finite number,
 *   `M/count` = how many cases that is. Ground-truth metrics exist on
 *   labelled cases only, so their average is over those and the count says
 *   how many;
 * - `<prefix>/rating` with "yes"/"no" values: `<prefix>/rating/percentage` =
 *   share of "yes" (0 to 1) among the cases rated yes or no, and
 *   `<prefix>/rating/count` = how many those are (other values are ignored);
 *   safety's share is also `<prefix>/rating/average`, the name Databricks
 *   gives it (the judge's `ratingSummaries`);
 * - numeric `<prefix>/rating`: `/rating/average` and `/rating/count`;
 * - `<prefix>/error_message`: `<prefix>/error_count` = cases with a message;
 * - per-chunk lists, rationales and other texts: not aggregated.
 * Nothing is ever NaN or infinite: a metric with no usable value has a count
 * of 0 and no average (not an average of 0).
 *
 * Order: cases are taken sorted by case id, so every sum adds the same terms
 * in the same order; engines, metric names, statistics and judge ids are keys
 * in sorted order (code-unit order, not the locale's).
 *
 * Judges: the judge usage of the evaluated cases and of every delivery that
 * ended in a retry (of cases evaluated later or failed), summed per judge id;
 * with judge.prices their estimated cost, and with run.max_judge_cost whether
 * the ceiling was reached and how many cases were judged (judge-spend-report.ts).
 *
 * Agreement: each relevance judge's agreement with the human labels of the
 * documents it graded, from the lines of cases.jsonl (judge-agreement.ts),
 * and a warning for a judge below `run.min_agreement` (report-agreement.ts).
 */
export function reportInOnePass(input: ReportInput): Report {
  const { manifest } = input;
  const outcomes = caseOutcomes(input);
  const engineNames = new Set(manifest.engines);
  for (const result of outcomes.evaluated) for (const engine of Object.keys(result.engines)) engineNames.add(engine);
  const engines = Object.fromEntries(
    [...engineNames].sort(compareText).map((engine) => [engine, engineStatistics(outcomes.evaluated, engine)] as const),
  );
  const judges = totalJudgeUsage([...outcomes.evaluated.map((result) => result.judge_usage), ...(input.attemptUsage ?? [])]);
  const judgingSkipped = outcomes.evaluated.filter((result) => result.judging_skipped !== undefined).length;
  const tally = new AgreementTally();
  const settings = correctionSettingsOf(manifest);
  const correction = new CorrectionTally();
  for (const line of caseLines(outcomes.evaluated)) {
    tally.add(line);
    correction.add(line);
  }
  const corrected = correction.estimates(settings);
  const differences = correction.differences(settings);
  const report: Report = {
    ...reportHeader(manifest),
    cases: {
      total: outcomes.total,
      evaluated: outcomes.evaluated.length,
      failed: outcomes.failed.length,
      missing: outcomes.missing.length,
      judge_failed: judgeFailedCaseCount(outcomes.judgeFailures),
    },
    input_errors: manifest.input_errors,
    engines,
    judges,
    ...judgeSpendFields(manifest, judges, { evaluated: outcomes.evaluated.length, judgingSkipped }, input.budgetReached ?? false),
    missing_cases: [...outcomes.missing],
    failed_cases: [...outcomes.failed, ...outcomes.judgeFailures].sort(compareFailedCases),
    ...(corrected === undefined ? {} : { corrected, ...(differences.length === 0 ? {} : { corrected_differences: differences }) }),
  };
  return withLeaderboards(
    withJudgeRanking(withAgreement(report, tally.agreement(), minAgreementOf(manifest))),
    [resultsSegment(outcomes.evaluated)],
    leaderboardOptionsOf(manifest),
  );
}

/** What a report says of its run, from the manifest alone; both report builders (this one and the reducer's partials) start from it. */
export function reportHeader(manifest: Manifest): Pick<Report, 'run_id' | 'suite' | 'dataset' | 'config_hash' | 'created_at' | 'judge'> {
  return {
    run_id: manifest.run_id,
    suite: manifest.suite,
    dataset: manifest.dataset.key,
    config_hash: manifest.config_hash,
    created_at: manifest.created_at,
    judge: manifest.judge,
  };
}

/** `report.json`'s text: two-space indented, with a final newline. */
export function reportJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
