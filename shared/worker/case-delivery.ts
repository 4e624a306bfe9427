import { parseCaseMessage } from '../schema/pipeline-messages.js';
import { evaluateCaseMessage, type CaseOutcome, type WorkerDependencies } from './evaluate-case.js';

/**
 * One delivery of a message of the cases queue, as a consumer hands it over
 * (Lambda's SQS record, or a message received on one machine): the judge
 * worker's step for it, and whether the queue must deliver it again. Both
 * adapters (functions/judge-worker.ts, and the CLI's drive) take their
 * decisions here, so a case is judged and retried the same way on both.
 */
export interface CaseDelivery {
  readonly messageId: string;
  readonly body: string;
  /** How many times the message has been received, this time included. */
  readonly receiveCount: number;
  /** Milliseconds left in this invocation (Lambda's remaining time), when there is a limit. */
  readonly remainingMs?: number;
}

export type DeliveredCase =
  /** Not a case message at all: delivered again, then dead-lettered, where the failure recorder keeps it with why. */
  | { readonly kind: 'unreadable'; readonly messageId: string; readonly error: string }
  | { readonly kind: 'evaluated'; readonly messageId: string; readonly outcome: CaseOutcome };

export async function deliverCase(dependencies: WorkerDependencies, delivery: CaseDelivery): Promise<DeliveredCase> {
  const message = parseCaseMessage(delivery.body);
  if (!message.ok) return { kind: 'unreadable', messageId: delivery.messageId, error: message.error };
  const outcome = await evaluateCaseMessage(dependencies, message.value, {
    messageId: delivery.messageId,
    receiveCount: delivery.receiveCount,
    ...(delivery.remainingMs === undefined ? {} : { remainingMs: delivery.remainingMs }),
  });
  return { kind: 'evaluated', messageId: delivery.messageId, outcome };
}

/**
 * Whether the queue delivers the message again: a judge failure that may
 * pass on a later try (`retry`), any other failure (`failed`: again, and
 * after maxReceiveCount to the dead-letter queue, its reason recorded), a
 * message that does not parse. A case done, waiting for batch answers, or
 * deferred as a new message (the rate limit) is over for this delivery.
 */
export function comesBack(delivered: DeliveredCase): boolean {
  return delivered.kind === 'unreadable' || delivered.outcome.kind === 'retry' || delivered.outcome.kind === 'failed';
}

/**
 * A batch of deliveries judged: all at once (judge calls and store reads
 * overlap), or in two halves, each case after case (a thread's CPU-bound
 * judging: one case's store reads and writes overlap the other's computing,
 * and no more than two cases' objects are alive at a time).
 */
export async function deliverCases(
  dependencies: WorkerDependencies,
  deliveries: readonly CaseDelivery[],
  order: 'at-once' | 'two-halves' = 'at-once',
): Promise<DeliveredCase[]> {
  if (order === 'at-once') return Promise.all(deliveries.map((delivery) => deliverCase(dependencies, delivery)));
  const halves = [0, 1].map((half) => deliveries.filter((_, index) => index % 2 === half));
  const delivered = await Promise.all(
    halves.map(async (half) => {
      const inTurn: DeliveredCase[] = [];
      for (const delivery of half) inTurn.push(await deliverCase(dependencies, delivery));
      return inTurn;
    }),
  );
  return delivered.flat();
}
