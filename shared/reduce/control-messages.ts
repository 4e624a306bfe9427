import { continueIngest, type IngestDependencies } from '../ingest/ingest.js';
import type { ControlMessage } from '../schema/pipeline-messages.js';
import { checkRun, type ReducerDependencies, type RunAction } from './reduce.js';
import { reduceRange } from './split-reduce.js';

/**
 * The control queue's messages, taken by whichever driver consumes it (the
 * reducer Lambda, or the CLI's drive for the runs of other processes at a
 * shared endpoint): a check of a run, answered with the run's next action
 * (the driver schedules or sleeps a wait: reduce.ts); a reduce range of a
 * large run, aggregated; a continue-ingest, resuming a large run's case
 * messages from its checkpoint. Each is idempotent.
 */
export type ControlDependencies = ReducerDependencies & IngestDependencies;

export type ControlOutcome =
  | { readonly kind: 'checked'; readonly action: RunAction }
  | { readonly kind: 'range-reduced'; readonly runId: string; readonly range: number; readonly cases: number }
  | { readonly kind: 'ingest-continued'; readonly runId: string; readonly from: string };

export async function handleControlMessage(dependencies: ControlDependencies, message: ControlMessage): Promise<ControlOutcome> {
  switch (message.kind) {
    case 'continue-ingest':
      await continueIngest(dependencies, message);
      return { kind: 'ingest-continued', runId: message.run_id, from: message.messages_key };
    case 'reduce-range': {
      const reduced = await reduceRange(dependencies.store, message);
      return { kind: 'range-reduced', runId: message.run_id, range: message.range, cases: reduced.cases };
    }
    case 'check':
      return { kind: 'checked', action: await checkRun(dependencies, message) };
  }
}
