import { Command } from 'commander';
import { describeStatus, runStatus } from '../../shared/operations/run-status.js';
import { resolve } from 'node:path';
import { LocalFolderStore } from '../../shared/ports/local-folder-store.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import { endpointUrl, runId as checkedRunId } from '../option-values.js';
import { bucketStore } from '../run/bucket-store.js';
import { UsageError } from '../usage-error.js';

interface StatusOptions {
  bucket?: string;
  store?: string;
  json?: boolean;
  awsEndpoint?: string;
}

/** `assay status RUN --bucket B` (or `--store DIR`): where a run stands, of a deployed stack or of a local store. */
export function statusCommand(): Command {
  return new Command('status')
    .description("Show how far a run has come, in a deployed stack's bucket or a local store")
    .argument('<run>', 'run id (r-...)')
    .option('--bucket <name>', "the stack's bucket")
    .option('--store <folder>', 'a local store folder instead of a bucket (assay run --store)')
    .option('--json', 'print {run_id, suite, cases, evaluated, failed, ingested, report} as JSON')
    .option('--aws-endpoint <url>', 'an S3-compatible endpoint instead of AWS (an emulator)')
    .action(async (runId: string, options: StatusOptions) => {
      checkedRunId(runId);
      const status = await runStatus(storeOf(options), runId);
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

function storeOf(options: StatusOptions): ObjectStore {
  if ((options.bucket === undefined) === (options.store === undefined)) {
    throw new UsageError('assay status needs the run\'s store: --bucket <name> for a deployed stack, or --store <folder> for a local one (assay run --store, .assay by default)');
  }
  return options.store === undefined ? bucketStore(options.bucket ?? '', endpointUrl(options.awsEndpoint)) : new LocalFolderStore(resolve(options.store));
}
