import type { Pricing } from '../judge-answers/judge-completion.js';
import type { AnswerIdentity, AnsweredBy, JudgeUsageRecord, ModelTokens } from '../schema/run-records.js';

/**
 * The one count of judge usage: what one judgment adds (`judgmentUsage`), and
 * the sum of usages (`addUsage`, `addUsages`, `addUsagesByJudge`). The judge
 * service counts with it for the progress line, a case's judgments for its
 * result, and the report sums the results' and deliveries' records with it,
 * so a count means the same everywhere.
 */

/** Per judge: what judging cost, as a case result and report.json hold it (schema/run-records.ts). */
export type JudgeUsage = JudgeUsageRecord;

/** What one judgment cost, so a caller can total it per case. */
export interface JudgmentCost {
  /** No call was made for it: a cache hit, or, with `shared`, an identical call in flight answered it. */
  readonly cached: boolean;
  /** An identical request already in flight in this process answered it: shared in the run, not a cache hit. */
  readonly shared?: boolean;
  readonly retries: number;
  /** Requests the server refused as over its rate limit. */
  readonly rateLimited: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** The model asked (the service's), whose prices the tokens are at. */
  readonly model: string;
  /** Absent: online. A batch job's answers are priced at the provider's batch price. */
  readonly pricing?: Pricing;
  /** Who answered, as the provider named it: set for a call that was answered (not a cache hit, not a failure). */
  readonly answeredBy?: AnswerIdentity;
}

/** No judgment yet: every count zero, and no `rate_limited`, `shared_in_run`, `models` or `batch_models`. */
export function emptyUsage(): JudgeUsage {
  return { calls: 0, cache_hits: 0, retries: 0, errors: 0, input_tokens: 0, output_tokens: 0 };
}

/**
 * What one judgment adds: a call, or a cache hit (which spends nothing), its
 * retries, requests refused as over the rate limit (only when there were
 * some), its tokens, and for a call its tokens under the model asked (and,
 * for a batch job's answer, under `batch_models` too); an error when it failed.
 * A judgment shared with an identical call in flight adds only
 * `shared_in_run`: its outcome is that call's, whose failure is counted once,
 * so `errors` never exceeds `calls` + `cache_hits`.
 */
export function judgmentUsage(cost: JudgmentCost, failed: boolean): JudgeUsage {
  if (cost.shared === true) return { ...emptyUsage(), shared_in_run: 1 };
  const tokens: ModelTokens = { input_tokens: cost.inputTokens, output_tokens: cost.outputTokens };
  return {
    calls: cost.cached ? 0 : 1,
    cache_hits: cost.cached ? 1 : 0,
    retries: cost.retries,
    errors: failed ? 1 : 0,
    ...tokens,
    ...(cost.rateLimited > 0 ? { rate_limited: cost.rateLimited } : {}),
    ...(cost.cached ? {} : { models: { [cost.model]: tokens } }),
    ...(!cost.cached && cost.pricing === 'batch' ? { batch_models: { [cost.model]: tokens } } : {}),
    ...(cost.cached || cost.answeredBy === undefined || failed ? {} : { answered_by: [{ ...cost.answeredBy, calls: 1 }] }),
  };
}

/**
 * The sum of two usages, as a new record: every count added; `rate_limited`,
 * `shared_in_run`, `models` and `batch_models` present when either has them,
 * models in the order they were first seen.
 */
export function addUsage(left: Readonly<JudgeUsage>, right: Readonly<JudgeUsage>): JudgeUsage {
  const models = addModelTokens(left.models, right.models);
  const batchModels = addModelTokens(left.batch_models, right.batch_models);
  const answeredBy = addAnsweredBy(left.answered_by, right.answered_by);
  return {
    calls: left.calls + right.calls,
    cache_hits: left.cache_hits + right.cache_hits,
    retries: left.retries + right.retries,
    errors: left.errors + right.errors,
    input_tokens: left.input_tokens + right.input_tokens,
    output_tokens: left.output_tokens + right.output_tokens,
    ...(left.rate_limited === undefined && right.rate_limited === undefined
      ? {}
      : { rate_limited: (left.rate_limited ?? 0) + (right.rate_limited ?? 0) }),
    ...(left.shared_in_run === undefined && right.shared_in_run === undefined
      ? {}
      : { shared_in_run: (left.shared_in_run ?? 0) + (right.shared_in_run ?? 0) }),
    ...(models === undefined ? {} : { models }),
    ...(batchModels === undefined ? {} : { batch_models: batchModels }),
    ...(answeredBy === undefined ? {} : { answered_by: answeredBy }),
  };
}

/** The sum of usages, in their order; the empty usage for none. */
export function addUsages(usages: Iterable<Readonly<JudgeUsage>>): JudgeUsage {
  let total = emptyUsage();
  for (const usage of usages) total = addUsage(total, usage);
  return total;
}

/** Per judge id, its usage summed over the records (in their order); judge ids in the order they were first seen. */
export function addUsagesByJudge(records: Iterable<Readonly<Record<string, Readonly<JudgeUsage>>>>): Record<string, JudgeUsage> {
  const totals = new Map<string, JudgeUsage>();
  for (const record of records) {
    for (const [judgeId, usage] of Object.entries(record)) totals.set(judgeId, addUsage(totals.get(judgeId) ?? emptyUsage(), usage));
  }
  return Object.fromEntries(totals);
}

function addModelTokens(
  left: Readonly<Record<string, ModelTokens>> | undefined,
  right: Readonly<Record<string, ModelTokens>> | undefined,
): Record<string, ModelTokens> | undefined {
  if (left === undefined && right === undefined) return undefined;
  const sums = new Map<string, ModelTokens>();
  // for...in rather than Object.entries: this runs twice a judgment, and the arrays of entries were most of its cost.
  for (const model in left) if (Object.hasOwn(left, model)) sums.set(model, left[model] as ModelTokens);
  for (const model in right) {
    if (!Object.hasOwn(right, model)) continue;
    const tokens = right[model] as ModelTokens;
    const sum = sums.get(model);
    sums.set(model, {
      input_tokens: (sum?.input_tokens ?? 0) + tokens.input_tokens,
      output_tokens: (sum?.output_tokens ?? 0) + tokens.output_tokens,
    });
  }
  return Object.fromEntries(sums);
}

/**
 * The calls each identity answered, summed; identities in the order first
 * seen. The lists hold one identity or a few (a model, and its fingerprints as
 * the provider rotates them), so an identity is found by looking along the
 * sums rather than through a key made for it (a JSON text per entry, twice a
 * judgment, was the larger part of this).
 */
function addAnsweredBy(left: readonly AnsweredBy[] | undefined, right: readonly AnsweredBy[] | undefined): AnsweredBy[] | undefined {
  if (left === undefined && right === undefined) return undefined;
  const sums: AnsweredBy[] = [];
  for (const entries of [left, right]) {
    for (const entry of entries ?? []) {
      const fingerprint = entry.system_fingerprint ?? null;
      const at = sums.findIndex((sum) => sum.model === entry.model && (sum.system_fingerprint ?? null) === fingerprint);
      if (at === -1) sums.push({ ...entry, calls: entry.calls });
      else sums[at] = { ...entry, calls: (sums[at] as AnsweredBy).calls + entry.calls };
    }
  }
  return sums;
}
