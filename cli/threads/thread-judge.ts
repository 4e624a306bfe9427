import { deliverCases, type CaseDelivery, type DeliveredCase } from '../../shared/worker/case-delivery.js';
import { judgingByConfig } from '../../shared/worker/judging-by-config.js';
import { buildJudging } from '../../shared/worker/judging.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';

/**
 * The judge worker's step as a pipeline thread takes it, on one batch of
 * case messages. The main thread hands over only runs whose judging makes no
 * call (judgedWithoutCalls), so the judging built here from the run's stored
 * config (its judge list), with no API key and no engine credentials, is the
 * same as its own: the judges computed here, none of them calling out. The
 * batch is judged in two halves, each case after case (shared/worker/case-delivery.ts).
 */
export function threadJudge(store: ObjectStore): (deliveries: readonly CaseDelivery[]) => Promise<DeliveredCase[]> {
  const judgingFor = judgingByConfig({
    build: (config) => {
      const judging = buildJudging(config, { environment: {}, cacheStore: undefined, engineEnvironment: {} });
      if ((judging.engines ?? []).length > 0) throw new Error('A pipeline thread was handed a run that calls a live engine');
      return judging;
    },
  });
  return (deliveries) => deliverCases({ store, judgingFor }, deliveries, 'two-halves');
}
