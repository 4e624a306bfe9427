import type { JudgeUsageRecord } from '../schema/run-records.js';
import { addUsages, addUsagesByJudge } from '../scoring/judge-usage-tally.js';
import { sortedRecord } from './ordering.js';

/** Per judge id, its usage summed over the given usage records (in their order), keys sorted; tokens per model too. */
export function totalJudgeUsage(records: readonly Readonly<Record<string, JudgeUsageRecord>>[]): Record<string, JudgeUsageRecord> {
  const totals = Object.entries(addUsagesByJudge(records)).map(([judgeId, { models, batch_models: batchModels, ...counts }]) => {
    const byModel = models === undefined ? {} : { models: sortedRecord(Object.entries(models)) };
    const batchByModel = batchModels === undefined ? {} : { batch_models: sortedRecord(Object.entries(batchModels)) };
    return [judgeId, { ...counts, ...byModel, ...batchByModel }] as const;
  });
  return sortedRecord(totals);
}

/** One sentence on the requests a judge server refused as over its rate limit, or undefined when it refused none. */
export function rateLimitNote(judges: Readonly<Record<string, JudgeUsageRecord>>): string | undefined {
  const total = addUsages(Object.values(judges));
  const refused = total.rate_limited ?? 0;
  if (refused === 0) return undefined;
  const requests = total.calls + total.retries;
  return (
    `The judge server refused ${refused} of ${requests} requests as over its rate limit; each was sent again after the wait it asked ` +
    '(counted in retries). Set judge.rate_limit to pace the requests at the limit instead.'
  );
}

/** One sentence on the judgments answered by an identical request already in flight, or undefined when there were none. */
export function sharedNote(judges: Readonly<Record<string, JudgeUsageRecord>>): string | undefined {
  const shared = addUsages(Object.values(judges)).shared_in_run ?? 0;
  if (shared === 0) return undefined;
  return (
    `${shared} ${shared === 1 ? 'judgment was' : 'judgments were'} shared in the run: asked while an identical request was in flight, ` +
    'answered by that request (no call of their own, and not counted as cache hits or errors).'
  );
}
