import type { CaseMessage } from '../schema/pipeline-messages.js';
import { sendAll, type WorkQueue } from '../ports/work-queue.js';

/**
 * A case whose only transient failures were judgments the judge server's
 * rate limit held until their deadline has lost nothing but time: it is sent
 * to the cases queue again as a new message, delayed, and the delivery that
 * could not finish it ends as done. A new message starts its receive count
 * from 0, so a rate limit that holds for a while never sends the case to the
 * dead-letter queue after maxReceiveCount deliveries, which are meant for
 * failures that may not pass. Extending the visibility would not do: every
 * receive counts, however long the message was hidden. A new message works
 * the same on SQS (DelaySeconds, at most 900) and the in-process queue.
 *
 * The delay doubles from 2 s (the embedded queues' visibility timeout) to a
 * minute: about 16 minutes over MAX_RATE_LIMIT_DEFERRALS deferrals. After
 * those the case goes back through the queue as any transient failure does,
 * so a limit that never lifts still ends in a recorded failure instead of a
 * case that circles for ever.
 */

/** Times a case is deferred for a rate limit before it goes back through the queue as a transient failure. */
export const MAX_RATE_LIMIT_DEFERRALS = 20;
const FIRST_DELAY_SECONDS = 2;
const LONGEST_DELAY_SECONDS = 60;

/** How to send a case message again as a new message, delayed. */
export type DeferCase = (message: CaseMessage, delaySeconds: number) => Promise<void>;

/** Sends a case again to the cases queue as a new message, delayed. */
export function deferTo(cases: WorkQueue): DeferCase {
  return (message, delaySeconds) => sendAll(cases, [{ id: 'deferred', body: JSON.stringify(message), delaySeconds }]);
}

/** The message to send again and its delay, or undefined when the case has been deferred as often as it may be. */
export function deferralOf(message: CaseMessage): { message: CaseMessage; delaySeconds: number } | undefined {
  const deferrals = message.deferrals ?? 0;
  if (deferrals >= MAX_RATE_LIMIT_DEFERRALS) return undefined;
  return {
    message: { ...message, deferrals: deferrals + 1 },
    delaySeconds: Math.min(LONGEST_DELAY_SECONDS, FIRST_DELAY_SECONDS * 2 ** deferrals),
  };
}
