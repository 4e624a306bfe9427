import type { JudgeUsageRecord, ModelTokens } from '../schema/run-records.js';
import { sortedRecord } from './ordering.js';

/** Per judge id, its usage summed over the given usage records (in their order), keys sorted; tokens per model too. */
export function totalJudgeUsage(records: readonly Readonly<Record<string, JudgeUsageRecord>>[]): Record<string, JudgeUsageRecord> {
  const totals = new Map<string, JudgeUsageRecord>();
  for (const record of records) {
    for (const [judgeId, usage] of Object.entries(record)) {
      const total = totals.get(judgeId) ?? emptyUsage();
      const models = addModelTokens(total.models, usage.models);
      const batchModels = addModelTokens(total.batch_models, usage.batch_models);
      totals.set(judgeId, {
        calls: total.calls + usage.calls,
        cache_hits: total.cache_hits + usage.cache_hits,
        retries: total.retries + usage.retries,
        errors: total.errors + usage.errors,
        input_tokens: total.input_tokens + usage.input_tokens,
        output_tokens: total.output_tokens + usage.output_tokens,
        ...(total.rate_limited === undefined && usage.rate_limited === undefined ? {} : { rate_limited: (total.rate_limited ?? 0) + (usage.rate_limited ?? 0) }),
        ...(models === undefined ? {} : { models }),
        ...(batchModels === undefined ? {} : { batch_models: batchModels }),
      });
    }
  }
  return sortedRecord(totals);
}

function addModelTokens(
  left: Readonly<Record<string, ModelTokens>> | undefined,
  right: Readonly<Record<string, ModelTokens>> | undefined,
): Record<string, ModelTokens> | undefined {
  if (left === undefined && right === undefined) return undefined;
  const sums = new Map<string, ModelTokens>(Object.entries(left ?? {}));
  for (const [model, tokens] of Object.entries(right ?? {})) {
    const sum = sums.get(model) ?? { input_tokens: 0, output_tokens: 0 };
    sums.set(model, { input_tokens: sum.input_tokens + tokens.input_tokens, output_tokens: sum.output_tokens + tokens.output_tokens });
  }
  return sortedRecord(sums);
}

function emptyUsage(): JudgeUsageRecord {
  return { calls: 0, cache_hits: 0, retries: 0, errors: 0, input_tokens: 0, output_tokens: 0 };
}

/** One sentence on the requests a judge server refused as over its rate limit, or undefined when it refused none. */
export function rateLimitNote(judges: Readonly<Record<string, JudgeUsageRecord>>): string | undefined {
  const refused = Object.values(judges).reduce((total, usage) => total + (usage.rate_limited ?? 0), 0);
  if (refused === 0) return undefined;
  const requests = Object.values(judges).reduce((total, usage) => total + usage.calls + usage.retries, 0);
  return (
    `The judge server refused ${refused} of ${requests} requests as over its rate limit; each was sent again after the wait it asked ` +
    '(counted in retries). Set judge.rate_limit to pace the requests at the limit instead.'
  );
}
