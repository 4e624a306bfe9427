import type { SQSEvent } from 'aws-lambda';
import { checkMessageSchema } from '../../shared/schema/pipeline-messages.js';

/**
 * Wraps the reducer handler of a process that drives `runId` itself: the
 * scheduled checks of that run are taken off the control queue unread,
 * because the drive writes the run's report as soon as its cases are done.
 * Without this a check that comes due just then reduces the whole run a
 * second time, in the same process, and writes the same report again. The
 * checks of other runs at the same queues, and every other control message,
 * reach the handler as before; a body that is not a check (or not JSON) is
 * left for the handler to reject.
 */
export function withoutOwnRunChecks<Outcome>(runId: string, handler: (event: SQSEvent) => Promise<Outcome[]>): (event: SQSEvent) => Promise<Outcome[]> {
  return async (event) => {
    const Records = event.Records.filter((record) => !isCheckOf(runId, record.body));
    return Records.length === 0 ? [] : handler({ ...event, Records });
  };
}

function isCheckOf(runId: string, body: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  const check = checkMessageSchema.safeParse(parsed);
  return check.success && check.data.run_id === runId;
}
