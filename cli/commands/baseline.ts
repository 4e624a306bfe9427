import { Command } from 'commander';
import { resolve } from 'node:path';
import { setBaseline } from '../../shared/compare/baselines.js';
import { LocalFolderStore } from '../../shared/ports/local-folder-store.js';
import { bucketStore } from '../run/bucket-store.js';
import { endpointUrl, runId as checkedRunId, suiteName } from '../option-values.js';
import { UsageError } from '../usage-error.js';

interface BaselineOptions {
  suite: string;
  store: string;
  bucket?: string;
  awsEndpoint?: string;
}

/**
 * `assay baseline set RUN [--suite S]`: the run later runs of the suite are
 * compared with (without one, each run is compared with the previous).
 */
export function baselineCommand(): Command {
  const baseline = new Command('baseline').description("Manage a suite's baseline run");
  baseline
    .command('set')
    .description('Make a reported run the baseline that later runs of its suite are compared with')
    .argument('<run>', 'run id (r-...)')
    .option('--suite <name>', 'the suite of the run', 'default')
    .option('--store <folder>', 'local store folder', '.assay')
    .option('--bucket <name>', "a deployed stack's bucket instead of the local store")
    .option('--aws-endpoint <url>', 'with --bucket: an S3-compatible endpoint instead of AWS')
    .action(async (runId: string, options: BaselineOptions) => {
      checkedRunId(runId);
      suiteName(options.suite);
      const endpoint = endpointUrl(options.awsEndpoint);
      const store = options.bucket === undefined ? new LocalFolderStore(resolve(options.store)) : bucketStore(options.bucket, endpoint);
      const result = await setBaseline(store, options.suite, runId, new Date());
      if (!result.ok) throw new UsageError(result.error);
      process.stdout.write(`baseline of suite ${options.suite}: ${runId}\n`);
    });
  for (const command of baseline.commands) command.exitOverride();
  return baseline;
}
