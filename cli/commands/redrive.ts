import { Command } from 'commander';
import { redriveFailures } from '../../shared/operations/redrive.js';
import { EXIT_FAILED } from '../failure-message.js';
import { finishRun, withFinishRunOptions, type FinishRunOptions } from '../run/finish-run.js';
import { UsageError } from '../usage-error.js';

/**
 * `assay redrive RUN`: sends a run's failed cases back through the judge
 * worker with the run's own config, then writes the run's report again. A
 * run with cases that never ended is `assay resume`'s: redrive says so and
 * exits 1 at once, sending nothing, instead of waiting for those cases.
 */
export function redriveCommand(): Command {
  const command = new Command('redrive')
    .description("Send a run's failed cases through the judges again and rewrite its report")
    .argument('<run>', 'run id, as printed by `assay run` (r-...)');
  return withFinishRunOptions(command).action(async (runId: string, options: FinishRunOptions) => {
    await finishRun('assay redrive', runId, options, async (infrastructure) => {
      const outcome = await redriveFailures(infrastructure.store, infrastructure, runId);
      if (outcome.kind === 'unfinished') {
        throw new UsageError(
          `run ${runId} is unfinished: ${outcome.unfinished} of its ${outcome.cases} cases have neither a result nor a failure, ` +
            `and redrive sends only failed cases; assay resume ${runId} ${infrastructure.finishOptions} finishes it`,
          EXIT_FAILED,
        );
      }
      const { requeued } = outcome;
      const cases = requeued.length === 1 ? 'case' : 'cases';
      return {
        caseIds: requeued,
        waiting: 0,
        description: `${requeued.length} failed ${cases} sent again: ${requeued.join(', ') || 'none'}`,
      };
    });
  });
}
