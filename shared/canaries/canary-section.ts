import type { CanaryDrift, CanaryItem, CanaryJudge, CanaryReport } from '../schema/canary-report.js';

type AttributedRegression = CanaryReport['attributed_regressions'][number];
import type { CaseLine, Report, ReportComparison } from '../schema/report.js';
import type { AnsweredBy, AnswerIdentity, JudgeUsageRecord, Manifest } from '../schema/run-records.js';
import { canaryAgreement } from './canary-agreement.js';
import { holmAdjusted } from '../statistics/p-value-adjustment.js';
import { canaryDrift, type UnadjustedDrift } from './canary-drift.js';
import { canaryItems } from './canary-items.js';

type Regression = ReportComparison['regressions'][number];

/** What the reducer knows of a run's canary when it writes the report. */
export interface CanaryRun {
  /** The canary set as ingest read it (the manifest's `canary`). */
  readonly canary: NonNullable<Manifest['canary']>;
  readonly alpha: number;
  /** The canary cases' lines of cases.jsonl, in case-id order. */
  readonly lines: readonly CaseLine[];
  /** The canary cases' judge usage, per judge. */
  readonly usage: Readonly<Record<string, JudgeUsageRecord>>;
  readonly cases: CanaryReport['cases'];
  /** The run the report is compared with, and its canary (undefined when its report has none). */
  readonly comparedWith: { readonly runId: string; readonly canaries: CanaryReport | undefined } | undefined;
  /** The report's regressions against that run, before the judges' are taken out. */
  readonly regressions: readonly Regression[];
}

/**
 * report.json's `canaries` (shared/schema/canary-report.ts): each judge's
 * verdicts on the canary items, its agreement with their human labels, who
 * answered, and its drift since the run compared with, the p-values
 * adjusted by Holm's method over the judges tested (shared/statistics/p-value-adjustment.ts),
 * which holds the chance of flagging any unchanged judge of the run at alpha; a judge is flagged
 * changed when its verdicts moved (adjusted p < alpha) or its model identity
 * did. A regression of a judge's own metric goes to the judge when the
 * judge's canary verdicts moved, unless human labels decided it (a
 * regression a corrected estimate found, `judge` set, is the engine's: the
 * labels carry it whatever the judge does). A changed identity alone flags
 * the judge without taking its regressions: the canary shows it judges as
 * before.
 */
export function canarySection(run: CanaryRun): CanaryReport {
  // Another canary set pairs no item with this one: it is no comparison.
  const earlierCanary = run.comparedWith?.canaries;
  const before = earlierCanary?.dataset === run.canary.key ? earlierCanary : undefined;
  const drafts = [...canaryItems(run.lines)].map(([judge, { scale, items }]) => ({
    judge,
    scale,
    items,
    answeredBy: run.usage[judge]?.answered_by ?? [],
  }));
  const notCompared = notComparedReason(run.comparedWith, run.canary.key);
  return {
    dataset: run.canary.key,
    cases: run.cases,
    input_errors: run.canary.input_errors,
    ...(run.canary.first_input_error === undefined ? {} : { first_input_error: run.canary.first_input_error }),
    alpha: run.alpha,
    compared_with: before === undefined ? null : (run.comparedWith?.runId ?? null),
    ...(notCompared === undefined ? {} : { not_compared: notCompared }),
    ...judgeChanges(drafts, before, run.alpha, run.regressions),
    usage: { ...run.usage },
  };
}

/**
 * `assay compare A B`'s canary: B's canary verdicts against A's, as a run's
 * report holds its own against the run compared with (canarySection): the
 * same tests, Holm over the judges at B's alpha, and the comparison's
 * regressions of a judge whose verdicts moved put down to it. Undefined
 * unless both reports judged the same canary set.
 */
export function canariesBetween(a: Report, b: Report, regressions: readonly Regression[]): CanaryReport | undefined {
  if (a.canaries === undefined || b.canaries === undefined || a.canaries.dataset !== b.canaries.dataset) return undefined;
  const drafts = Object.entries(b.canaries.judges).map(([judge, canary]) => ({
    judge,
    scale: canary.scale,
    items: canary.items,
    answeredBy: canary.answered_by,
  }));
  const { not_compared: _notCompared, ...rest } = b.canaries;
  return { ...rest, compared_with: a.run_id, ...judgeChanges(drafts, a.canaries, b.canaries.alpha, regressions) };
}

/** A judge's canary verdicts and who gave them, before the comparison. */
interface JudgeDraft {
  readonly judge: string;
  readonly scale: CanaryJudge['scale'];
  readonly items: readonly CanaryItem[];
  readonly answeredBy: readonly AnsweredBy[];
}

type JudgeChanges = Pick<CanaryReport, 'judges' | 'changed_judges' | 'attributed_regressions' | 'summary'>;

/** Each judge's drift against `before` (Holm over the judges tested), the judges flagged, the regressions put down to them, and their sentences. */
function judgeChanges(
  drafts: readonly JudgeDraft[],
  before: CanaryReport | undefined,
  alpha: number,
  regressions: readonly Regression[],
): JudgeChanges {
  const drifts = drafts.map((draft) => {
    const earlier = before === undefined || !Object.hasOwn(before.judges, draft.judge) ? undefined : before.judges[draft.judge];
    return canaryDrift({ scale: draft.scale, items: draft.items, answered_by: draft.answeredBy }, earlier);
  });
  const tested = drifts.filter((drift): drift is UnadjustedDrift => drift !== undefined);
  const adjusted = holmAdjusted(tested.map((drift) => drift.p_value));
  const judges: Record<string, CanaryJudge> = {};
  for (const [index, draft] of drafts.entries()) {
    const unadjusted = drifts[index];
    const rank = unadjusted === undefined ? -1 : tested.indexOf(unadjusted);
    const drift: CanaryDrift | undefined =
      unadjusted === undefined
        ? undefined
        : { ...unadjusted, adjusted_p_value: adjusted[rank] as number, verdicts_changed: (adjusted[rank] as number) < alpha };
    const agreement = canaryAgreement(draft.items, draft.scale);
    judges[draft.judge] = {
      scale: draft.scale,
      items: [...draft.items],
      failed: draft.items.filter((item) => item.verdict === null).length,
      ...(agreement === undefined ? {} : { agreement }),
      answered_by: [...draft.answeredBy],
      ...(drift === undefined ? {} : { drift }),
      changed: drift !== undefined && (drift.verdicts_changed || drift.identity_changed),
    };
  }
  const changedJudges = Object.keys(judges).filter((judge) => judges[judge]?.changed === true);
  const moved = new Set(changedJudges.filter((judge) => judges[judge]?.drift?.verdicts_changed === true));
  const attributed = regressions.flatMap((regression) => {
    const judge = judgeOfMetric(regression.metric);
    return judge === undefined || !moved.has(judge) || regression.judge !== undefined
      ? []
      : [
          {
            engine: regression.engine,
            metric: regression.metric,
            delta: regression.delta,
            p_value: regression.p_value,
            ...(regression.adjusted_p_value === undefined ? {} : { adjusted_p_value: regression.adjusted_p_value }),
            judge,
          },
        ];
  });
  return {
    judges,
    changed_judges: changedJudges,
    attributed_regressions: attributed,
    summary: changedJudges.map((judge) =>
      changeSentence(
        judge,
        judges[judge] as CanaryJudge,
        tested.length,
        attributed.filter((entry) => entry.judge === judge),
      ),
    ),
  };
}

/** The regressions a report keeps as the engines': those the canary did not put down to a changed judge. */
export function engineRegressions(
  regressions: readonly Regression[],
  canaries: Pick<CanaryReport, 'attributed_regressions'> | undefined,
): Regression[] {
  if (canaries === undefined) return [...regressions];
  const judged = new Set(canaries.attributed_regressions.map((entry) => JSON.stringify([entry.engine, entry.metric])));
  return regressions.filter((regression) => !judged.has(JSON.stringify([regression.engine, regression.metric])));
}

/** The judge a metric is of: `<scope>/llm_judged/<judge>/...` (or `lexical`); ground-truth and human metrics have none. */
export function judgeOfMetric(metric: string): string | undefined {
  return /^[a-z]+\/(?:llm_judged|lexical)\/([^/]+)\//.exec(metric)?.[1];
}

function notComparedReason(comparedWith: CanaryRun['comparedWith'], key: string): string | undefined {
  if (comparedWith === undefined) return 'the suite has no baseline and no earlier run to compare with';
  if (comparedWith.canaries === undefined) return `the run compared with, ${comparedWith.runId}, judged no canary set`;
  if (comparedWith.canaries.dataset !== key)
    return `the run compared with, ${comparedWith.runId}, judged another canary set, ${comparedWith.canaries.dataset}`;
  return undefined;
}

/**
 * The sentence of a changed judge, as report.md, the warnings and `assay
 * run` say it: "judge changed: chunk_relevance: 14 of 120 canary verdicts
 * flipped (14 from yes to no, 0 from no to yes), p = 0.0004 (McNemar, Holm
 * over 2 judges); model identity was gpt-x fp_a, now gpt-x fp_b; put down to
 * the judge: search retrieval/llm_judged/chunk_relevance/precision -0.1200
 * (p 0.0010)". Words rather than arrows: terminals and fonts without them
 * still read it.
 */
function changeSentence(judge: string, canary: CanaryJudge, tested: number, attributed: readonly AttributedRegression[]): string {
  const drift = canary.drift as CanaryDrift;
  const moves =
    canary.scale === 'yes_no'
      ? `${drift.changed} of ${drift.paired} canary verdicts flipped (${drift.lower} from yes to no, ${drift.higher} from no to yes)`
      : `${drift.changed} of ${drift.paired} canary grades changed (${drift.lower} lower, ${drift.higher} higher)`;
  const test = drift.test === 'mcnemar' ? 'McNemar' : 'sign-flip test';
  const family = tested > 1 ? `, Holm over ${tested} judges` : '';
  const verdicts = `${moves}, ${pText(drift.adjusted_p_value)} (${test}${family})`;
  const identity = drift.identity_changed
    ? `; model identity was ${identitiesText(drift.identities_before)}, now ${identitiesText(canary.answered_by)}`
    : '';
  const regressions = drift.verdicts_changed
    ? attributed.length === 0
      ? ''
      : `; put down to the judge: ${attributed.map((entry) => `${entry.engine} ${entry.metric} ${entry.delta.toFixed(4)} (${evidence(entry)})`).join(', ')}`
    : '; its canary verdicts did not move beyond chance, so its metrics\u2019 regressions stay the engines\u2019';
  return `judge changed: ${judge}: ${verdicts}${identity}${regressions}`;
}

/** A regression's p-value, and the adjusted one its comparison decided on when it has one. */
function evidence(entry: AttributedRegression): string {
  const adjusted = entry.adjusted_p_value === undefined ? '' : `, adjusted ${entry.adjusted_p_value.toFixed(4)}`;
  return `p ${entry.p_value.toFixed(4)}${adjusted}`;
}

/** A p-value to four places, "p = 0.0004", or "p < 0.0001" below them. */
export function pText(p: number): string {
  return p < 0.00005 ? 'p < 0.0001' : `p = ${p.toFixed(4)}`;
}

/** Identities as one text: "model fingerprint", several joined by " + ". */
export function identitiesText(identities: readonly AnswerIdentity[]): string {
  if (identities.length === 0) return 'none named';
  return identities
    .map((identity) => [identity.model, identity.system_fingerprint].filter((part) => part !== undefined).join(' '))
    .join(' + ');
}
