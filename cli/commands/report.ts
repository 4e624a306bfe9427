import { Command } from 'commander';
import { resolve } from 'node:path';
import { REPORT_FILES } from '../../shared/reduce/reduce.js';
import { runKeys } from '../../shared/run/run-identity.js';
import { runStatus } from '../../shared/operations/run-status.js';
import { assertWritableFolder, endpointUrl, runId as checkedRunId } from '../option-values.js';
import { bucketStore } from '../run/bucket-store.js';
import { copyReportFiles } from '../run/report-out.js';
import { UsageError } from '../usage-error.js';

interface ReportOptions {
  bucket: string;
  out: string;
  awsEndpoint?: string;
}

/** `assay report RUN --bucket B --out DIR`: downloads a run's report files from a deployed stack. */
export function reportCommand(): Command {
  return new Command('report')
    .description("Download a run's report files (report.json, report.md, report.html, cases.jsonl) from a deployed stack")
    .argument('<run>', 'run id (r-...)')
    .requiredOption('--bucket <name>', "the stack's bucket")
    .option('--out <folder>', 'where to put the files', 'assay-report')
    .option('--aws-endpoint <url>', 'an S3-compatible endpoint instead of AWS (an emulator)')
    .action(async (runId: string, options: ReportOptions) => {
      checkedRunId(runId);
      const folder = resolve(options.out);
      await assertWritableFolder('--out', folder);
      const store = bucketStore(options.bucket, endpointUrl(options.awsEndpoint));
      const status = await runStatus(store, runId);
      if (status.manifest === undefined) throw new UsageError(`No run ${runId} in bucket ${options.bucket}`);
      if (status.report === undefined)
        throw new UsageError(`Run ${runId} has no report yet; see assay status ${runId} --bucket ${options.bucket}`, 1);
      const { suite } = status.manifest;
      const files = await copyReportFiles(store, (name) => runKeys.report(suite, runId, name), REPORT_FILES, folder);
      for (const path of files) process.stdout.write(`${path}\n`);
    });
}
