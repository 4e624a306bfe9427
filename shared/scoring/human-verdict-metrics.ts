import { findJudge } from '../judges/catalog/index.js';
import type { JudgeDefinition } from '../judges/judge-definition.js';
import { humanVerdictName } from '../metrics/judge-twin-names.js';
import type { EngineOutput } from '../schema/eval-case.js';
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
 * `response`.
 */
export function humanVerdictMetrics(
  output: Pick<EngineOutput, 'human_verdicts'>,
  judged: Readonly<Record<string, MetricValue>>,
  judges: readonly Pick<JudgeDefinition, 'id' | 'scope'>[],
): Record<string, MetricValue> {
  const verdicts = output.human_verdicts;
  if (verdicts === undefined) return {};
  const rated = ratedScopes(judged);
  const metrics: Record<string, MetricValue> = {};
  for (const [judge, verdict] of Object.entries(verdicts)) {
    const scope =
      (rated.has(judge) ? rated.get(judge) : undefined) ??
      judges.find((definition) => definition.id === judge)?.scope ??
      findJudge(judge)?.scope ??
      'response';
    metrics[humanVerdictName(scope, judge)] = verdict;
  }
  return metrics;
}

/** Judge id → the scope of its rating among the metrics; a judge's own rating before a model variant's. */
function ratedScopes(judged: Readonly<Record<string, MetricValue>>): Map<string, string> {
  const scopes = new Map<string, string>();
  for (const name of Object.keys(judged)) {
    const match = JUDGE_RATING.exec(name);
    if (match === null) continue;
    const [, scope = 'response', judge = '', variant] = match;
    if (variant === undefined || !scopes.has(judge)) scopes.set(judge, scope);
  }
  return scopes;
}
