import { Command } from 'commander';
import { redriveFailures } from '../../shared/operations/redrive.js';
import { EXIT_FAILED } from '../failure-message.js';
import { finishRun, withFinishRunOptions, type FinishRunOptions } from '../run/finish-run.js';
import { UsageError } from '../usage-error.js';

/**
 * `assay redrive RUN`: sends a run's failed cases, and its cases lacking a
 * judgment, back through the judge worker with the run's own config, then
 * writes the run's report again. A
 * run with cases that never ended is `assay resume`'s: redrive says so and
 * exits 1 at once, sending nothing, instead of waiting for those cases.
 */
export function redriveCommand(): Command {
  const command = new Command('redrive')
    .description("Send a run's failed cases and cases lacking a judgment through the judges again and rewrite its report")
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
      const cases = (count: number): string => (count === 1 ? 'case' : 'cases');
      const failedSent = `${requeued.length} failed ${cases(requeued.length)} sent again: ${requeued.join(', ') || 'none'}`;
      if (outcome.kind === 'dataset-changed') {
        // The failed cases went; the cases lacking a judgment keep their results, and the report says so again.
        process.stderr.write(`assay: the cases lacking a judgment were not sent again: ${outcome.reason}\n`);
        return { caseIds: requeued, waiting: 0, description: failedSent };
      }
      const { rejudged } = outcome;
      return {
        caseIds: [...requeued, ...rejudged].sort(),
        waiting: 0,
        description:
          rejudged.length === 0
            ? failedSent
            : `${failedSent}; ${rejudged.length} ${cases(rejudged.length)} lacking a judgment sent again: ${rejudged.join(', ')}`,
      };
    });
  });
}
