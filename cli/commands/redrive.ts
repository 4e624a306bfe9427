import { Command } from 'commander';
import { redriveFailures } from '../../shared/pipeline/redrive.js';
import { finishRun, type FinishRunOptions } from '../run/finish-run.js';

/**
 * `assay redrive RUN`: sends a run's failed cases back through the judge
 * worker with the run's own config, then writes the run's report again.
 */
export function redriveCommand(): Command {
  return new Command('redrive')
    .description("Send a run's failed cases through the judges again and rewrite its report")
    .argument('<run>', 'run id, as printed by `assay run` (r-...)')
    .option('--store <folder>', 'local store folder of the run', '.assay')
    .option('--out <folder>', 'folder for the rewritten report files', 'assay-report')
    .option('--concurrency <n>', 'judge calls in flight at once', '8')
    .option('--aws-endpoint <url>', 'the run lives in S3 and SQS at this endpoint')
    .option('--no-cache', 'judge again instead of reusing cached judgments')
    .action(async (runId: string, options: FinishRunOptions) => {
      await finishRun(
        runId,
        options,
        async (infrastructure) => (await redriveFailures(infrastructure.store, infrastructure, runId)).requeued,
        (requeued) => `${requeued.length} failed ${requeued.length === 1 ? 'case' : 'cases'} sent again: ${requeued.join(', ') || 'none'}`,
      );
    });
}
