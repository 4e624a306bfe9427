import { Command } from 'commander';
import { describeStatus, runStatus, type RunStatus } from '../../shared/operations/run-status.js';
import { pollJob } from '../../shared/batch-judging/batch-jobs.js';
import type { JobRecord } from '../../shared/batch-judging/batch-state.js';
import { terminalJson, terminalName, terminalText } from '../../shared/report-render/terminal-text.js';
import { judgeEnvironmentOf } from '../../shared/judge-client/judge-provider.js';
import { runConfigOf } from '../../shared/run/stored-config.js';
import { describeUnclaimed, unclaimedRun } from '../../shared/operations/unclaimed-run.js';
import { runStatusJson, runStatusJsonSchema } from '../../shared/operations/run-status-json.js';
import { checkedJson } from '../checked-json.js';
import { EXIT_FAILED } from '../failure-message.js';
import { runId as checkedRunId } from '../option-values.js';
import { existingStore } from '../store-option.js';
import { UsageError } from '../usage-error.js';
import { shellWord } from '../shell-word.js';

interface StatusOptions {
  bucket?: string;
  store?: string;
  json?: boolean;
  awsEndpoint?: string;
}

/**
 * `assay status RUN` (`--store DIR`, `.assay` by default, or `--bucket B`):
 * where a run stands, of a local store or a deployed stack. A run id of which
 * the store holds nothing is no run there: exit 1, rather than a run said to
 * be starting.
 */
export function statusCommand(): Command {
  return new Command('status')
    .description("Show how far a run has come, in a deployed stack's bucket or a local store")
    .argument('<run>', 'run id (r-...)')
    .option('--store <folder>', 'the local store folder (assay run --store; default .assay)')
    .option('--bucket <name>', "a deployed stack's bucket instead of a local store")
    .option('--json', 'print {run_id, suite, cases, evaluated, failed, ingested, report} as JSON')
    .option('--aws-endpoint <url>', 'an S3-compatible endpoint instead of AWS (an emulator)')
    .action(async (runId: string, options: StatusOptions) => {
      checkedRunId(runId);
      const { store, name } = await existingStore(options);
      const found = await runStatus(store, runId);
      const unclaimed = found.manifest === undefined ? await unclaimedRun(store, runId) : undefined;
      if (found.manifest === undefined && unclaimed === undefined) {
        throw new UsageError(
          `no such run ${runId} in ${name}; check the run id (assay run prints it on its first line) and the store`,
          EXIT_FAILED,
        );
      }
      const status = await withLiveJobs(found);
      if (options.json !== true) {
        const described = describeStatus(status, finishCommand(runId, options));
        process.stdout.write(`${terminalText(unclaimed === undefined ? described : `${described}: ${describeUnclaimed(unclaimed)}`)}\n`);
        return;
      }
      process.stdout.write(`${terminalJson(checkedJson(runStatusJsonSchema, runStatusJson(runId, status)))}\n`);
    });
}

/**
 * The run's open batch jobs as the provider sees them now, when this
 * process has the provider's key (a job of a detached run is looked at by
 * no one until it is resumed); otherwise as the last look recorded them.
 * Nothing is written: status only reads.
 */
async function withLiveJobs(status: RunStatus): Promise<RunStatus> {
  const open = status.batch?.jobs.filter((job) => !job.collected && job.provider_id !== undefined && job.phase !== 'failed') ?? [];
  if (status.batch === undefined || status.manifest === undefined || open.length === 0) return status;
  const { batchProviderOf } = await import('../../shared/batch-providers/batch-provider-of.js');
  const chosen = await batchProviderOf(runConfigOf(status.manifest).judge, judgeEnvironmentOf(process.env));
  if (!chosen.ok) return status;
  const now = () => new Date();
  const { BatchProviderError } = await import('../../shared/batch-providers/batch-provider.js');
  // A provider that does not answer now leaves the job as last seen, said so on stderr: status only reads, and never fails for it.
  const looked = async (job: JobRecord): Promise<JobRecord> => {
    if (!open.includes(job)) return job;
    try {
      return await pollJob(chosen.value, job, now);
    } catch (error) {
      if (!(error instanceof BatchProviderError)) throw error;
      process.stderr.write(
        `assay: ${terminalName(`batch job ${job.provider_id ?? job.key}: the provider did not answer (${error.message}); shown as last seen`)}\n`,
      );
      return job;
    }
  };
  const jobs = await Promise.all(status.batch.jobs.map(looked));
  return { ...status, batch: { ...status.batch, jobs } };
}

/** The command that finishes the run where these options found it; none for a deployed stack's bucket, whose runs no command here drives. */
function finishCommand(runId: string, options: StatusOptions): string | undefined {
  if (options.bucket !== undefined && options.bucket !== 'assay') return undefined;
  if (options.awsEndpoint !== undefined) return `assay resume ${runId} --aws-endpoint ${shellWord(options.awsEndpoint)}`;
  if (options.bucket !== undefined) return undefined;
  return options.store === undefined || options.store === '.assay'
    ? `assay resume ${runId}`
    : `assay resume ${runId} --store ${shellWord(options.store)}`;
}
