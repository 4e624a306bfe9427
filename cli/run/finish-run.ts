import type { Command } from 'commander';
import { resolve } from 'node:path';
import { judgeEnvironmentOf } from '../../shared/judge-client/judge-provider.js';
import { JudgeSetupError } from '../../shared/scoring/judge-backend.js';
import type { Judging } from '../../shared/worker/evaluate-case.js';
import { JudgeBudget } from '../../shared/worker/judge-budget.js';
import { EngineSetupError } from '../../shared/worker/live-engines.js';
import { readManifest, runConfigOf, StoredConfigError } from '../../shared/run/stored-config.js';
import { renderSummaryTable } from '../../shared/report-render/summary-table.js';
import { terminalName, terminalText } from '../../shared/report-render/terminal-text.js';
import type { Manifest } from '../../shared/schema/run-records.js';
import { MAX_CONCURRENCY } from '../../shared/schema/work-limits.js';
import { assertWritableFolder, countUpTo, endpointUrl, judgeBaseUrl, runId as checkedRunId } from '../option-values.js';
import { configProblems, UsageError } from '../usage-error.js';
import { copyReport, driveRun } from './drive-run.js';
import { batchJudgingDriveOf } from './batch-judging-drive.js';
import { stoppedRunError } from './batch-judging-progress.js';
import { MAX_FAILED_DESCRIPTION, MAX_FAILED_FLAGS, maxFailedOf } from './failed-cases-gate.js';
import { awsInfrastructure, embeddedInfrastructure, type Infrastructure } from './store-and-queues.js';
import { Progress } from './progress.js';
import { enforceReportGate, locateIn } from './report-gate.js';
import { regressionLines } from './regression-gate.js';
import { finishingRunStandIn } from './judge-key-check.js';
import { judgingForRuns } from './run-judging.js';
import { withRunLease } from './with-run-lease.js';
import { stoppedByFullDisk } from './full-disk-stop.js';
import { noticeOnInterrupt } from './interrupt-notice.js';
import { judgeProxyNotice } from './proxy-notice.js';

export interface FinishRunOptions {
  readonly store: string;
  readonly out: string;
  readonly concurrency: string;
  readonly awsEndpoint?: string;
  readonly cache: boolean;
  readonly maxFailed?: string;
}

/** The options of the commands that finish a run: where it lives, where the report goes, how hard to judge. */
export function withFinishRunOptions(command: Command): Command {
  return command
    .option('--store <folder>', 'local store folder of the run', '.assay')
    .option('--out <folder>', 'folder for the report files', 'assay-report')
    .option('--concurrency <n>', `judge calls in flight at once, 1 to ${MAX_CONCURRENCY}`, '8')
    .option('--aws-endpoint <url>', 'the run lives in S3 and SQS at this endpoint')
    .option('--no-cache', 'judge again instead of reusing cached judgments')
    .option(MAX_FAILED_FLAGS, MAX_FAILED_DESCRIPTION);
}

/** What a command that finishes a run sent through the judge worker again, and what it says about it. */
export interface Requeued {
  readonly caseIds: readonly string[];
  /** Cases of a batch-judged run that wait on its jobs: not sent, but judged in this drive once the jobs have answered. */
  readonly waiting: number;
  /** The line on stderr: what was sent, and what was not and which command sends it. */
  readonly description: string;
}

/**
 * What `assay redrive` and `assay resume` share: find the run, send some of
 * its cases through the judge worker again (`requeue` says which, sends
 * them, and says so), judge them with the run's own stored config, and
 * write the report again once every case has ended.
 */
export async function finishRun(
  command: string,
  runId: string,
  options: FinishRunOptions,
  requeue: (infrastructure: Infrastructure, manifest: Manifest) => Promise<Requeued>,
): Promise<void> {
  checkedRunId(runId);
  const concurrency = countUpTo('--concurrency', options.concurrency, MAX_CONCURRENCY);
  const maxFailed = maxFailedOf(options.maxFailed);
  const endpoint = endpointUrl(options.awsEndpoint);
  judgeBaseUrl(process.env);
  await assertWritableFolder('--out', resolve(options.out));
  const infrastructure = endpoint === undefined ? embeddedInfrastructure(resolve(options.store)) : await awsInfrastructure(endpoint);
  const manifest = await readManifest(infrastructure.store, runId).catch(async () => {
    throw await missingRun(infrastructure, runId);
  });
  const environment = judgeEnvironmentOf(process.env);
  const lexicalNotice = finishingRunStandIn(runId, manifest, environment);
  if (lexicalNotice !== undefined) process.stderr.write(`${lexicalNotice}\n`);
  for (const warning of infrastructure.warnings) process.stderr.write(`${warning}\n`);
  const runJudging = judgingForRuns({
    environment,
    cacheStore: options.cache ? infrastructure.store : undefined,
    runStore: infrastructure.store,
    engineEnvironment: process.env,
    budget: new JudgeBudget(infrastructure.store),
  });
  let judging: Judging;
  try {
    judging = await runJudging.judgingFor(runConfigOf(manifest), manifest.config_hash);
  } catch (error) {
    if (error instanceof StoredConfigError) throw configProblems(error.message);
    if (error instanceof EngineSetupError || error instanceof JudgeSetupError) throw new UsageError(error.message);
    throw error;
  }
  // As assay run says it: a proxy in the environment is not used for the judge's calls (proxy-notice.ts).
  const callsJudge = judging.backend.kind === 'llm' && judging.judges.some((judge) => judge.kind !== 'deterministic');
  const proxyNote = callsJudge ? judgeProxyNotice(runConfigOf(manifest).judge, process.env) : undefined;
  if (proxyNote !== undefined) process.stderr.write(`${terminalName(proxyNote)}\n`);
  // Interrupted (Ctrl-C, a cancelled CI job), it says how to go on, as assay run does: the same command finishes the run.
  const finish = `assay resume ${runId} ${infrastructure.finishOptions}`;
  const interruptNotice = noticeOnInterrupt(process.stderr, { store: infrastructure.store, runId, finish });
  // A second operator finishing the same run would send every unfinished case again: one process at a time.
  const { report, files } = await withRunLease(
    infrastructure.store,
    runId,
    command,
    `assay status ${runId} ${infrastructure.storeOptions}`,
    async () => {
      const requeued = await requeue(infrastructure, manifest);
      process.stderr.write(`assay: ${requeued.description}\n`);
      const tracker = new Progress(process.stderr, () => (judging.backend.kind !== 'llm' ? {} : judging.backend.service.usage()), {
        cacheOff: !options.cache,
      });
      tracker.start(requeued.caseIds.length + requeued.waiting);
      const now = () => new Date();
      const config = runConfigOf(manifest);
      // A batch-judged run's jobs are looked at, collected, or submitted again where the last process left them.
      const batch = await batchJudgingDriveOf(config.judge, environment, judging, false, tracker, now);
      const driven = await driveRun(infrastructure, runId, {
        expectedCases: requeued.caseIds.length,
        judgingFor: runJudging.judgingFor,
        tracker,
        now,
        concurrency,
        ...(batch === undefined ? {} : { batch }),
      });
      if (driven.kind === 'stopped') throw stoppedRunError(driven.ending, finish);
      if (driven.kind !== 'reported') throw new Error(`The drive of run ${runId} ended ${driven.kind}, without a report`);
      return { report: driven.report, files: await copyReport(infrastructure, manifest.suite, runId, resolve(options.out)) };
    },
  )
    .catch(async (error: unknown) => {
      throw await stoppedByFullDisk(error, { store: infrastructure.store, runId, finish });
    })
    .finally(() => {
      interruptNotice.release();
      return runJudging.close();
    });
  process.stdout.write(terminalText(`${renderSummaryTable(report)}\nreport files:\n${files.map((file) => `  ${file}`).join('\n')}\n`));
  for (const warning of report.warnings ?? []) process.stderr.write(`assay: warning: ${terminalName(warning)}\n`);
  for (const line of regressionLines(report)) process.stderr.write(`${line}\n`);
  await enforceReportGate(report, infrastructure.store, locateIn(infrastructure), maxFailed, process.stderr);
}

/**
 * Why a run has no manifest: no such run in this store (a mistyped id, the
 * wrong --store); or a run stopped before its ingest claimed it (interrupted
 * while a large dataset was read, a full disk), which judged nothing, so
 * there is nothing to finish.
 */
async function missingRun(infrastructure: Infrastructure, runId: string): Promise<UsageError> {
  for await (const _key of infrastructure.store.list(`runs/${runId}/`)) {
    return new UsageError(
      `run ${runId} stopped before its ingest claimed it (it has no manifest in ${infrastructure.description}): nothing of it was judged, so there is nothing to finish; start it again with assay run`,
      1,
    );
  }
  return new UsageError(`No run ${runId} in ${infrastructure.description}; check the run id and --store`);
}
