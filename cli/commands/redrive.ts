import { Command } from 'commander';
import { resolve } from 'node:path';
import { selectJudges } from '../../shared/judges/judge-config.js';
import { chooseJudgeBackend } from '../../shared/judges/judge-settings.js';
import { readManifest } from '../../shared/pipeline/evaluate-case.js';
import { redriveFailures } from '../../shared/pipeline/redrive.js';
import type { RunConfig } from '../../shared/pipeline/run-config.js';
import { renderSummaryTable } from '../../shared/report/summary-table.js';
import { copyReport, driveRun } from '../run/drive-run.js';
import { awsInfrastructure, embeddedInfrastructure } from '../run/infrastructure.js';
import { Progress } from '../run/progress.js';
import { assertWritableFolder, endpointUrl, judgeBaseUrl, positiveInteger, runId as checkedRunId } from '../option-values.js';
import { UsageError } from '../usage-error.js';

interface RedriveOptions {
  store: string;
  out: string;
  concurrency: string;
  awsEndpoint?: string;
  cache: boolean;
}

/**
 * `assay redrive RUN`: sends a run's failed cases back through the judge
 * worker with the run's own config, then writes the run's report again.
 */
export function redriveCommand(): Command {
  return new Command('redrive')
    .description("Send a run's failed cases through the judges again and rewrite its report")
    .argument('<run>', 'run id, as printed by `assay run` (r-...)')
    .option('--store <folder>', 'local store folder of the run', '.assay')
    .option('--out <folder>', 'folder for the rewritten report files', 'assay-report')
    .option('--concurrency <n>', 'judge calls in flight at once', '8')
    .option('--aws-endpoint <url>', 'the run lives in S3 and SQS at this endpoint')
    .option('--no-cache', 'judge again instead of reusing cached judgments')
    .action(async (runId: string, options: RedriveOptions) => {
      checkedRunId(runId);
      const concurrency = positiveInteger('--concurrency', options.concurrency);
      const endpoint = endpointUrl(options.awsEndpoint);
      judgeBaseUrl(process.env);
      await assertWritableFolder('--out', resolve(options.out));
      const infrastructure = endpoint === undefined ? embeddedInfrastructure(resolve(options.store)) : await awsInfrastructure(endpoint);
      const manifest = await readManifest(infrastructure.store, runId).catch(() => {
        throw new UsageError(`No run ${runId} in ${infrastructure.description}; check the run id and --store`);
      });
      const config = manifest.config as unknown as RunConfig;
      const choice = chooseJudgeBackend(
        config,
        { OPENAI_API_KEY: process.env.OPENAI_API_KEY, OPENAI_BASE_URL: process.env.OPENAI_BASE_URL, ASSAY_JUDGE_MODEL: process.env.ASSAY_JUDGE_MODEL },
        options.cache ? infrastructure.store : undefined,
      );
      const { requeued } = await redriveFailures(infrastructure.store, infrastructure, runId);
      process.stderr.write(`assay: ${requeued.length} failed ${requeued.length === 1 ? 'case' : 'cases'} sent again: ${requeued.join(', ') || 'none'}\n`);
      const tracker = new Progress(process.stderr, () => (choice.backend.kind === 'llm' ? choice.backend.service.usage() : {}));
      tracker.start(requeued.length);
      const report = await driveRun(infrastructure, runId, {
        expectedCases: requeued.length,
        judging: { backend: choice.backend, judges: selectJudges(config) },
        tracker,
        now: () => new Date(),
        concurrency,
      });
      const files = await copyReport(infrastructure, manifest.suite, runId, resolve(options.out));
      process.stdout.write(`${renderSummaryTable(report)}\nreport files:\n${files.map((file) => `  ${file}`).join('\n')}\n`);
    });
}
