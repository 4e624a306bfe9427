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
    await finishRun('assay resume', runId, options, async (infrastructure) => {
      const outcome = await resumeRun({ ...infrastructure, now: () => new Date() }, runId);
      if (outcome.kind === 'unresumable') throw new UsageError(`Cannot resume: ${outcome.reason}`, 1);
      const { caseIds, waiting, failed } = outcome;
      const parts = [`run ${runId}: ${caseIds.length} unfinished ${plural(caseIds.length, 'case')} sent again`];
      if (waiting > 0) parts.push(`${waiting} ${waiting === 1 ? 'case waits' : 'cases wait'} on the run's batch jobs`);
      // Resume leaves failed cases as they are: a newcomer who resumed to get them judged needs the other command.
      const redrive = `assay redrive ${runId} ${infrastructure.finishOptions}`;
      if (failed === 1) parts.push(`the failed case stays failed (${redrive} sends it through the judges again)`);
      if (failed > 1) parts.push(`the ${failed} failed cases stay failed (${redrive} sends them through the judges again)`);
      return { caseIds, waiting, description: parts.join('; ') };
    });
  });
}

function plural(count: number, noun: string): string {
  return count === 1 ? noun : `${noun}s`;
}
