import type { JudgeUsageRecord } from '../schema/run-records.js';
import { sortedRecord } from './ordering.js';

/** Per judge id, its usage summed over the given usage records (in their order), keys sorted. */
export function totalJudgeUsage(records: readonly Readonly<Record<string, JudgeUsageRecord>>[]): Record<string, JudgeUsageRecord> {
  const totals = new Map<string, JudgeUsageRecord>();
  for (const record of records) {
    for (const [judgeId, usage] of Object.entries(record)) {
      const total = totals.get(judgeId) ?? emptyUsage();
      totals.set(judgeId, {
        calls: total.calls + usage.calls,
        cache_hits: total.cache_hits + usage.cache_hits,
        retries: total.retries + usage.retries,
        errors: total.errors + usage.errors,
        input_tokens: total.input_tokens + usage.input_tokens,
        output_tokens: total.output_tokens + usage.output_tokens,
      });
    }
  }
  return sortedRecord(totals);
}

function emptyUsage(): JudgeUsageRecord {
  return { calls: 0, cache_hits: 0, retries: 0, errors: 0, input_tokens: 0, output_tokens: 0 };
}
