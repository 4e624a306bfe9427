import { Command } from 'commander';
import { resumeRun } from '../../shared/operations/resume.js';
import { finishRun, withFinishRunOptions, type FinishRunOptions } from '../run/finish-run.js';
import { UsageError } from '../usage-error.js';

/**
 * `assay resume RUN`: finishes a run that was interrupted (its process
 * killed, the machine restarted): every case without a result or a failure
 * is sent again, the judge worker judges it with the run's config (paid
 * judgments come from the cache), and the report is written.
 */
export function resumeCommand(): Command {
  const command = new Command('resume')
    .description('Finish an interrupted run: judge every case that has no result or failure yet, then write the report')
    .argument('<run>', 'run id, as `assay run` prints it on its first line (r-...)');
  return withFinishRunOptions(command).action(async (runId: string, options: FinishRunOptions) => {
    await finishRun(
      'assay resume',
      runId,
      options,
      async (infrastructure) => {
        const outcome = await resumeRun({ ...infrastructure, now: () => new Date() }, runId);
        if (outcome.kind === 'unresumable') throw new UsageError(`Cannot resume: ${outcome.reason}`, 1);
        return outcome.caseIds;
      },
      (requeued) => `run ${runId}: ${requeued.length} unfinished ${requeued.length === 1 ? 'case' : 'cases'} sent again`,
    );
  });
}
