import { FullBatchFailureError } from '@aws-lambda-powertools/batch';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { createJudgeWorkerHandler } from '../../functions/judge-worker.js';
import { quietTelemetry } from '../../functions/handler-context.js';
import type { CaseOutcome } from '../../shared/worker/evaluate-case.js';
import { judgingByConfig } from '../../shared/worker/judging-by-config.js';
import { buildJudging } from '../../shared/worker/judging.js';
import { lambdaContext } from '../../shared/ports/lambda-event-source.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import type { ThreadAnswers } from './pipeline-threads.js';

/**
 * The judge worker handler as a pipeline thread runs it, on one batch of case
 * messages. The main thread hands over only runs whose judging makes no call
 * (judgedWithoutCalls), so the judging built here from the run's stored
 * config (its judge list), with no API key and no engine credentials, is the
 * same as its own: the judges computed here, none of them calling out.
 */
export function threadJudge(store: ObjectStore): (event: SQSEvent) => Promise<ThreadAnswers['judge']> {
  const telemetry = quietTelemetry();
  const judgingFor = judgingByConfig({
    build: (config) => {
      const judging = buildJudging(config, { environment: {}, cacheStore: undefined, engineEnvironment: {} });
      if ((judging.engines ?? []).length > 0) throw new Error('A pipeline thread was handed a run that calls a live engine');
      return judging;
    },
  });
  const judgeInTurn = async (event: SQSEvent, outcomes: CaseOutcome[]): Promise<SQSBatchResponse> => {
    const handler = createJudgeWorkerHandler({ store, judgingFor }, telemetry, (outcome) => outcomes.push(outcome), false);
    try {
      return await handler(event, lambdaContext('assay-cases'));
    } catch (error) {
      // Every record failed: the whole batch comes back, as the event source does on this error.
      if (error instanceof FullBatchFailureError)
        return { batchItemFailures: event.Records.map((record) => ({ itemIdentifier: record.messageId })) };
      throw error;
    }
  };
  // Two halves of the batch at once, each case after case: one case's store reads and writes overlap the other's computing, and no more than two cases' objects are alive at a time.
  return async (event) => {
    const outcomes: CaseOutcome[] = [];
    const halves = [0, 1].map((half) => event.Records.filter((_, index) => index % 2 === half)).filter((records) => records.length > 0);
    const responses = await Promise.all(halves.map((records) => judgeInTurn({ Records: records }, outcomes)));
    return { response: { batchItemFailures: responses.flatMap((response) => response.batchItemFailures) }, outcomes };
  };
}
