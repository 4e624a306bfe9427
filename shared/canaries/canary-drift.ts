import { mcNemarExactTest } from '../statistics/mcnemar-test.js';
import { pairedRandomizationTest } from '../statistics/paired-randomization-test.js';
import type { CanaryDrift, CanaryItem } from '../schema/canary-report.js';
import type { AnswerIdentity } from '../schema/run-records.js';
import { itemKey } from './canary-items.js';

/** One run's canary of one judge, as far as a comparison needs it. */
export interface JudgeCanary {
  readonly scale: 'yes_no' | 'graded';
  readonly items: readonly CanaryItem[];
  readonly answered_by: readonly AnswerIdentity[];
}

/** The sign-flip test's draws where the changed items are too many to enumerate every pattern; seeded, so a report is written the same twice. */
const SIGN_FLIPS = 10_000;
const SIGN_FLIP_SEED = 0;

/** A drift before the adjustment over the run's judges. */
export type UnadjustedDrift = Omit<CanaryDrift, 'adjusted_p_value' | 'verdicts_changed'>;

/**
 * Whether a judge's canary verdicts moved since the run compared with, item
 * by item (the same request and document, or request and engine, judged in
 * both runs; a failed judgment pairs with nothing):
 *
 * - yes/no verdicts: McNemar's exact test (shared/statistics/mcnemar-test.ts)
 *   of the items that went yes → no against those that went no → yes;
 * - grades and scores: Fisher's paired sign-flip randomization test of the
 *   differences (shared/statistics/paired-randomization-test.ts: exact over
 *   every sign pattern of up to 13 changed items, else 10,000 seeded draws),
 *   the test `assay compare` runs on metrics. It tests a shift of the grades
 *   as Wilcoxon's signed-rank test would, without the ranks: grades of a
 *   few values tie so often that the ranks add little.
 *
 * Both test a systematic move (more verdicts down than up, or the reverse);
 * as many moving each way as chance allows is no change of the judge's
 * leaning, though it may be a change of its agreement with the human labels,
 * which the canary reports beside. Another model identity (identityChanged)
 * is the provider's own word that the judge changed. Undefined when the
 * earlier run has no canary of this judge, or of another scale.
 */
export function canaryDrift(now: JudgeCanary, before: JudgeCanary | undefined): UnadjustedDrift | undefined {
  if (before === undefined || before.scale !== now.scale) return undefined;
  const earlier = new Map(before.items.map((item) => [itemKey(item), item.verdict]));
  const deltas: number[] = [];
  let paired = 0;
  for (const item of now.items) {
    const verdict = earlier.get(itemKey(item));
    if (verdict === undefined || verdict === null || item.verdict === null) continue;
    paired++;
    if (item.verdict !== verdict) deltas.push(item.verdict - verdict);
  }
  const lower = deltas.filter((delta) => delta < 0).length;
  const higher = deltas.length - lower;
  const p =
    now.scale === 'yes_no'
      ? mcNemarExactTest(lower, higher)
      : pairedRandomizationTest(deltas, { permutations: SIGN_FLIPS, seed: SIGN_FLIP_SEED });
  return {
    test: now.scale === 'yes_no' ? 'mcnemar' : 'sign-flip',
    paired,
    changed: deltas.length,
    lower,
    higher,
    p_value: p,
    identities_before: before.answered_by.map(identityOnly),
    identity_changed: identityChanged(now.answered_by, before.answered_by),
  };
}

/**
 * Whether other identities answered: a model or system_fingerprint that
 * answered now and not then, or the reverse. Runs of which either recorded
 * none (an older assay, a lexical judge) tell nothing.
 */
export function identityChanged(now: readonly AnswerIdentity[], before: readonly AnswerIdentity[]): boolean {
  if (now.length === 0 || before.length === 0) return false;
  const keys = (identities: readonly AnswerIdentity[]) => new Set(identities.map(identityKey));
  const [nowKeys, beforeKeys] = [keys(now), keys(before)];
  return nowKeys.size !== beforeKeys.size || [...nowKeys].some((key) => !beforeKeys.has(key));
}

/** An identity without its count, for beside another run's. */
function identityOnly(identity: AnswerIdentity): AnswerIdentity {
  return identity.system_fingerprint === undefined
    ? { model: identity.model }
    : { model: identity.model, system_fingerprint: identity.system_fingerprint };
}

export function identityKey(identity: AnswerIdentity): string {
  return JSON.stringify([identity.model, identity.system_fingerprint ?? null]);
}
