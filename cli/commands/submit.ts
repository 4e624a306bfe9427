import { Command } from 'commander';
import { extname } from 'node:path';
import { loadConfigFile } from '../../shared/config/index.js';
import { runIdentityOf } from '../../shared/run/run-identity.js';
import { describeStatus, runStatus } from '../../shared/operations/run-status.js';
import { suiteConfig } from '../../shared/run/suite-config.js';
import { terminalName } from '../../shared/report-render/terminal-text.js';
import { assertReadableFile } from '../readable-file.js';
import { bucketStore } from '../run/bucket-store.js';
import { MAX_FAILED_DESCRIPTION, MAX_FAILED_FLAGS, maxFailedOf } from '../run/failed-cases-gate.js';
import { enforceReportGate, locateIn } from '../run/report-gate.js';
import { runInputOf, withCollectionOptions, type CollectionOptions } from '../run/input-options.js';
import { uploadInput } from '../run/upload-input.js';
import { canaryFileOf, uploadCanary } from '../run/canary-upload.js';
import { endpointUrl, positiveNumber, suiteName } from '../option-values.js';
import { configProblems, UsageError } from '../usage-error.js';

interface SubmitOptions extends CollectionOptions {
  bucket: string;
  suite: string;
  config?: string;
  wait?: boolean;
  timeout: string;
  maxFailed?: string;
  awsEndpoint?: string;
}

/**
 * `assay submit DATASET --bucket B`: uploads a dataset to a deployed stack,
 * where the upload starts the run (a TREC collection: its files, then its
 * manifest, whose upload starts the run), and prints the run id (derived the way
 * ingest derives it). With --wait it follows the run until its report, and
 * exits 1 as `assay run` does when the run evaluated nothing or more of its
 * cases failed, are missing or lack a judgment than --max-failed allows.
 */
export function submitCommand(): Command {
  const command = new Command('submit')
    .description('Upload a dataset or TREC runs to a deployed stack (the upload starts the run) and print the run id')
    .argument('[dataset]', 'dataset file (.jsonl, .json or .csv); or give a TREC collection with --qrels and --run')
    .requiredOption('--bucket <name>', "the stack's bucket")
    .option('--suite <name>', 'suite: the dataset goes to datasets/<suite>/', 'default')
    .option('--config <file>', 'suite config (YAML or JSON), stored as config/<suite>.<ext>')
    .option('--wait', 'follow the run until its report is written')
    .option('--timeout <minutes>', 'with --wait: give up after this long', '60')
    .option(MAX_FAILED_FLAGS, `with --wait: ${MAX_FAILED_DESCRIPTION}`)
    .option('--aws-endpoint <url>', 'an S3-compatible endpoint instead of AWS (an emulator)');
  return withCollectionOptions(command).action(async (dataset: string | undefined, options: SubmitOptions) => {
    const input = await runInputOf(dataset, options);
    suiteName(options.suite);
    const timeoutMinutes = positiveNumber('--timeout', options.timeout, 'minutes');
    if (options.maxFailed !== undefined && options.wait !== true)
      throw new UsageError('--max-failed needs --wait: without it assay submit does not wait for the report');
    const maxFailed = maxFailedOf(options.maxFailed);
    const store = bucketStore(options.bucket, endpointUrl(options.awsEndpoint));
    if (options.config !== undefined) {
      await assertReadableFile(options.config, 'config');
      const loaded = await loadConfigFile(options.config);
      if (!loaded.ok) throw configProblems(loaded.error);
      const extension = extname(options.config).toLowerCase() === '.json' ? 'json' : 'yaml';
      // The suite's canary set goes where ingest reads it, before the config that names it.
      await uploadCanary(store, options.suite, loaded.value, await canaryFileOf(loaded.value, options.config));
      await store.upload(`config/${options.suite}.${extension}`, options.config);
    }
    const { key: datasetKey, etag } = await uploadInput(store, options.suite, input);
    const { runId } = runIdentityOf({ datasetKey, etag, config: await suiteConfig(store, options.suite), trigger: 'upload' });
    process.stdout.write(`submitted ${terminalName(datasetKey)} to ${options.bucket}; run ${runId}\n`);
    if (options.wait !== true) return;
    const deadline = Date.now() + timeoutMinutes * 60_000;
    for (;;) {
      const status = await runStatus(store, runId);
      process.stderr.write(`${describeStatus(status)}\n`);
      if (status.report !== undefined) {
        process.stdout.write(`report: ${status.report}\n`);
        if (status.reported !== undefined)
          await enforceReportGate(status.reported, store, locateIn({ bucket: options.bucket }), maxFailed, process.stderr);
        return;
      }
      if (Date.now() > deadline)
        throw new UsageError(`The run has no report after ${options.timeout} minutes; check it later with assay status ${runId}`, 1);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
  });
}
