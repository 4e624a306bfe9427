import { z } from 'zod';
import { runEventSources, type EventSourceMapping } from '../../support/lambda-event-source.js';
import type { EmulatedStack } from './emulated-stack.js';
import type { SandboxedFunction } from './lambda-sandbox.js';
import type { SynthesizedTemplate } from './synthesized-template.js';

const batchResponseSchema = z.object({ batchItemFailures: z.array(z.object({ itemIdentifier: z.string() })) });
/** The reducer's answers: a check's is the run's next action, `reported` once its report is written. */
const reducerOutcomesSchema = z.array(z.object({ kind: z.string(), action: z.object({ kind: z.string(), runId: z.string() }).optional() }));

/**
 * What Lambda's SQS event source mappings do, for every mapping of the
 * template: poll the queue and hand the function batches of its batch size
 * as SQS events, with each message's receive count. Runs until the reducer
 * has reported every run in `runIds`, or until a function fails a record or
 * a whole batch (a run that should pass does neither), and says which.
 */
export async function driveUntilReported(
  template: SynthesizedTemplate,
  stack: EmulatedStack,
  lambda: (logicalId: string) => SandboxedFunction,
  runIds: readonly string[],
): Promise<{ readonly problems: readonly string[] }> {
  const reported = new Set<string>();
  const problems: string[] = [];
  const polls = new AbortController();
  const finished = (): boolean => problems.length > 0 || runIds.every((id) => reported.has(id));
  const mappings = template.mappings.map(
    (mapping): EventSourceMapping => ({
      queue: stack.queue(mapping.queue),
      batchSize: mapping.batchSize,
      concurrency: 1,
      handler: async (event) => {
        const result = await lambda(mapping.functionId).invoke(event);
        const response = batchResponseSchema.safeParse(result);
        if (response.success && response.data.batchItemFailures.length > 0)
          problems.push(`${mapping.functionId} failed ${JSON.stringify(response.data.batchItemFailures)}`);
        const outcomes = reducerOutcomesSchema.safeParse(result);
        for (const outcome of outcomes.success ? outcomes.data : [])
          if (outcome.kind === 'checked' && outcome.action?.kind === 'reported') reported.add(outcome.action.runId);
        // Ends the other mappings' long polls at once.
        if (finished()) polls.abort();
        return result;
      },
      onHandlerError: (error) => {
        problems.push(`${mapping.functionId}: ${error instanceof Error ? error.message : String(error)}`);
        polls.abort();
      },
    }),
  );
  await runEventSources(mappings, finished, 1, polls.signal);
  return { problems };
}
