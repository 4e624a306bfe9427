import { findJudge } from '../judges/catalog/index.js';
import type { JudgeDefinition } from '../judges/judge-definition.js';
import { humanVerdictName } from '../metrics/judge-twin-names.js';
import type { EngineOutput, HumanVerdict } from '../schema/eval-case.js';
import type { MetricValue } from '../schema/metric-value.js';

/** A judge's own rating on a case: `<scope>/<source>/<judge>[@<model>]/rating`. */
const JUDGE_RATING = /^([a-z]+)\/(?:llm_judged|lexical)\/([a-z][a-z0-9_]*)(@[^/]+)?\/rating$/;

/**
 * The human verdicts of one engine's response as metrics: for each judge id
 * of the dataset's `human_verdicts`, `<scope>/human/<judge>/rating` = the
 * verdict ("yes", "no" or a number), the human counterpart of the judge's
 * rating, which the report corrects the judge's verdict rate with
 * (shared/report/corrected-estimates.ts). The scope is that of the judge's
 * own rating on the case (`judged`: the engine's judge metrics), so the two
 * pair by name; without one (the judge did not run, or skipped the case) the
 * scope of the run's judge of that id, else of the catalog's, else
 * `response`. A verdict of another kind than the judge's rating on the case
 * (a number for a yes/no judge) is not a verdict of it: it becomes
 * `<scope>/human/<judge>/error_message`, counted in the report's
 * `error_count`, rather than a value the human rate would leave out or the
 * correction would read as a rate.
 */
export function humanVerdictMetrics(
  output: Pick<EngineOutput, 'human_verdicts'>,
  judged: Readonly<Record<string, MetricValue>>,
  judges: readonly Pick<JudgeDefinition, 'id' | 'scope'>[],
): Record<string, MetricValue> {
  const verdicts = output.human_verdicts;
  if (verdicts === undefined) return {};
  const rated = ownRatings(judged);
  const metrics: Record<string, MetricValue> = {};
  for (const [judge, verdict] of Object.entries(verdicts)) {
    const own = rated.get(judge);
    const scope = own?.scope ?? judges.find((definition) => definition.id === judge)?.scope ?? findJudge(judge)?.scope ?? 'response';
    const mismatch = own === undefined ? undefined : kindMismatch(judge, verdict, own.rating);
    // A verdict of the other kind than the judge's rating would be left out of the human rate, or counted as a rate it is not.
    if (mismatch !== undefined) metrics[`${scope}/human/${judge}/error_message`] = mismatch;
    else metrics[humanVerdictName(scope, judge)] = verdict;
  }
  return metrics;
}

/** A judge's own rating on the case, and its scope. */
interface OwnRating {
  readonly scope: string;
  readonly rating: MetricValue;
}

/** Judge id → its rating among the metrics, with the rating's scope; a judge's own rating before a model variant's. */
function ownRatings(judged: Readonly<Record<string, MetricValue>>): Map<string, OwnRating> {
  const ratings = new Map<string, OwnRating>();
  for (const [name, rating] of Object.entries(judged)) {
    const match = JUDGE_RATING.exec(name);
    if (match === null) continue;
    const [, scope = 'response', judge = '', variant] = match;
    if (variant === undefined || !ratings.has(judge)) ratings.set(judge, { scope, rating });
  }
  return ratings;
}

/**
 * Why a person's verdict cannot stand beside the judge's rating on the case:
 * a number for a judge that rates yes or no, or yes or no for one that rates
 * with a number. Undefined when they are of one kind, or the judge's rating
 * says nothing of its kind (no rating: the judge failed on the case).
 */
function kindMismatch(judge: string, verdict: HumanVerdict, rating: MetricValue): string | undefined {
  const ratesYesNo = rating === 'yes' || rating === 'no';
  const ratesNumber = typeof rating === 'number';
  const isNumber = typeof verdict === 'number';
  if (ratesYesNo && isNumber)
    return `the human verdict ${verdict} is a number, but ${judge} rates yes or no: give "yes" or "no" in human_verdicts.${judge}`;
  if (ratesNumber && !isNumber)
    return `the human verdict "${verdict}" is yes or no, but ${judge} rates with a number: give a number on its scale in human_verdicts.${judge}`;
  return undefined;
}
