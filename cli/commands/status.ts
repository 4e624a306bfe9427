import { Command } from 'commander';
import { describeStatus, runStatus } from '../../shared/pipeline/run-status.js';
import { endpointUrl, runId as checkedRunId } from '../option-values.js';
import { bucketStore } from '../run/bucket-store.js';

interface StatusOptions {
  bucket: string;
  json?: boolean;
  awsEndpoint?: string;
}

/** `assay status RUN --bucket B`: where a run of a deployed stack stands. */
export function statusCommand(): Command {
  return new Command('status')
    .description('Show how far a run of a deployed stack has come')
    .argument('<run>', 'run id (r-...)')
    .requiredOption('--bucket <name>', "the stack's bucket")
    .option('--json', 'print {run_id, suite, cases, evaluated, failed, ingested, report} as JSON')
    .option('--aws-endpoint <url>', 'an S3-compatible endpoint instead of AWS (an emulator)')
    .action(async (runId: string, options: StatusOptions) => {
      checkedRunId(runId);
      const status = await runStatus(bucketStore(options.bucket, endpointUrl(options.awsEndpoint)), runId);
      if (options.json !== true) {
        process.stdout.write(`${describeStatus(status)}\n`);
        return;
      }
      const summary = {
        run_id: runId,
        suite: status.manifest?.suite ?? null,
        cases: status.manifest?.cases ?? null,
        evaluated: status.results,
        failed: status.failures,
        ingested: status.ingested,
        report: status.report ?? null,
      };
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    });
}
