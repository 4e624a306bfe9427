import { Command } from 'commander';
import { resumeRun } from '../../shared/pipeline/resume.js';
import { finishRun, type FinishRunOptions } from '../run/finish-run.js';
import { UsageError } from '../usage-error.js';

/**
 * `assay resume RUN`: finishes a run that was interrupted (its process
 * killed, the machine restarted): every case without a result or a failure
 * is sent again, the judge worker judges it with the run's config (paid
 * judgments come from the cache), and the report is written.
 */
export function resumeCommand(): Command {
  return new Command('resume')
    .description('Finish an interrupted run: judge every case that has no result or failure yet, then write the report')
    .argument('<run>', 'run id, as `assay run` prints it on its first line (r-...)')
    .option('--store <folder>', 'local store folder of the run', '.assay')
    .option('--out <folder>', 'folder for the report files', 'assay-report')
    .option('--concurrency <n>', 'judge calls in flight at once', '8')
    .option('--aws-endpoint <url>', 'the run lives in S3 and SQS at this endpoint')
    .option('--no-cache', 'judge again instead of reusing cached judgments')
    .action(async (runId: string, options: FinishRunOptions) => {
      await finishRun(
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
