import { Command } from 'commander';
import { redriveFailures } from '../../shared/operations/redrive.js';
import { finishRun, withFinishRunOptions, type FinishRunOptions } from '../run/finish-run.js';

/**
 * `assay redrive RUN`: sends a run's failed cases back through the judge
 * worker with the run's own config, then writes the run's report again.
 */
export function redriveCommand(): Command {
  const command = new Command('redrive')
    .description("Send a run's failed cases through the judges again and rewrite its report")
    .argument('<run>', 'run id, as printed by `assay run` (r-...)');
  return withFinishRunOptions(command).action(async (runId: string, options: FinishRunOptions) => {
    await finishRun(
      'assay redrive',
      runId,
      options,
      async (infrastructure) => (await redriveFailures(infrastructure.store, infrastructure, runId)).requeued,
      (requeued) => `${requeued.length} failed ${requeued.length === 1 ? 'case' : 'cases'} sent again: ${requeued.join(', ') || 'none'}`,
    );
  });
}
