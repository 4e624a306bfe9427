import { judgesForRun, type ConfigFile, type RunConfig } from '../../shared/config/index.js';
import type { Environment } from '../../shared/engines/create-engine.js';
import type { JudgeDefinition } from '../../shared/judges/judge-definition.js';
import type { JudgeUsage } from '../../shared/scoring/judge-usage-tally.js';
import { judgeBackendKind, type JudgeEnvironment } from '../../shared/scoring/judge-backend.js';
import { ingestDataset } from '../../shared/ingest/ingest.js';
import { JudgeBudget } from '../../shared/worker/judge-budget.js';
import { buildJudging, type BuiltJudging, type JudgingPlace } from '../../shared/worker/judging.js';
import { EngineSetupError } from '../../shared/worker/live-engines.js';
import { configHash, runIdentityOf } from '../../shared/run/run-identity.js';
import { NO_JUDGES } from '../../shared/worker/run-judge-summary.js';
import type { Report } from '../../shared/schema/report.js';
import { UsageError } from '../usage-error.js';
import { copyReport, driveRun, type DriveOutcome } from './drive-run.js';
import { batchJudgingDriveOf } from './batch-judging-drive.js';
import type { Infrastructure } from './store-and-queues.js';
import { judgedWithoutCalls, PipelineThreads, threadedCollectionWork } from '../threads/pipeline-threads.js';
import { defaultThreadsFor } from './default-threads.js';
import type { Progress, ProgressOptions } from './progress.js';
import { judgingForRuns } from './run-judging.js';
import { uploadInput, type RunInput, type TrecCollectionPaths } from './upload-input.js';
import { uploadCanary } from './canary-upload.js';
import { withRunLease } from './with-run-lease.js';

/** A dataset file (datasetPath) or a TREC collection (collection): one of the two. */
export interface PipelineRun extends RunInput {
  readonly suite: string;
  readonly config: ConfigFile;
  /** The config's canary set on this machine (canary-upload.ts), stored before the run starts. */
  readonly canaryPath?: string;
  readonly strict: boolean;
  readonly noCache: boolean;
  /** Judge calls in flight, and case batches in flight. */
  readonly concurrency: number;
  readonly outFolder: string;
  readonly environment: JudgeEnvironment;
  /** Where live engines read their credentials (`{{env.NAME}}`, postgres' connection_env); process.env by default. */
  readonly engineEnvironment?: Environment;
  readonly now?: () => Date;
  /**
   * Worker threads for the CPU-bound steps of an embedded run that makes no
   * judge call (pipeline-threads.ts); by default as default-threads.ts decides (inputs of 4 MiB or more; a dataset past two cores only); 1 for none.
   */
  readonly threads?: number;
  /** The built thread entry (dist/cli/pipeline-thread.js), for a caller running this from the TypeScript source, which has none of its own. */
  readonly threadEntry?: URL;
  /** Called with the run id (and the worker threads in use, 0 for none) before ingest starts, so a user can resume the run if this process dies. */
  readonly onRunId?: (runId: string, workerThreads: number) => void;
  /** Called once the run is ingested, before any case is judged: the tests inject faults here. */
  readonly afterIngest?: (runId: string, infrastructure: Infrastructure) => Promise<void>;
  /** A batch-judged run returns once its jobs are submitted (`--detach`), and `assay resume` finishes it. */
  readonly detach?: boolean;
}

export type PipelineResult =
  | {
      readonly kind: 'reported';
      readonly runId: string;
      readonly report: Report;
      readonly files: readonly string[];
      readonly judgeSummary: string;
      readonly skippedJudges: readonly string[];
    }
  /** A batch-judged run that ended its drive without a report: detached after submitting its jobs, or stopped by a job that failed validation. */
  | {
      readonly kind: 'batch';
      readonly runId: string;
      readonly ended: Exclude<DriveOutcome, { kind: 'reported' }>;
      readonly judgeSummary: string;
    };

/**
 * `assay run` on one machine or against an S3/SQS endpoint: uploads the
 * dataset (or the TREC collection, its manifest last), ingests it
 * (`ingestDataset`, the step the S3 event starts on AWS), then drives the
 * judge worker's, failure recorder's and reducer's steps from their queues
 * until the run's check reports it (drive-run.ts), and copies the report
 * files to the output folder. The Lambda handlers call the same steps on
 * AWS; only the infrastructure differs.
 */
export async function runPipeline(
  run: PipelineRun,
  infrastructure: Infrastructure,
  progress: (usage: () => Record<string, JudgeUsage>, options: ProgressOptions) => Progress,
): Promise<PipelineResult> {
  const now = run.now ?? (() => new Date());
  const config: ConfigFile = {
    ...run.config,
    judge: { ...run.config.judge, concurrency: run.config.judge.concurrency ?? run.concurrency },
  };
  // The manifest keeps the judge list itself, so a worker anywhere (a Lambda, a redrive, a thread) builds the same judging from it.
  const { judges: listed, skippedJudges } = judgesFor(config, judgeBackendKind(config.judge, run.environment), run.collection);
  const runConfig: RunConfig = { ...config, strict: run.strict, judges: listed.map((judge) => judge.id) };
  const engineEnvironment = run.engineEnvironment ?? process.env;
  // One budget for the process: its spend file holds what every case it judges spends (judge-budget.ts).
  const place = {
    environment: run.environment,
    cacheStore: run.noCache ? undefined : infrastructure.store,
    runStore: infrastructure.store,
    engineEnvironment,
    budget: new JudgeBudget(infrastructure.store),
  };
  const judging = usableJudging(runConfig, place);
  // The judge client's code (the openai SDK, or Bedrock's) loads while the dataset is stored and ingested, not before the first judgment.
  if (judging.backend.kind === 'llm') judging.backend.service.prepare?.();
  const hash = configHash(runConfig);
  // A run without judges names none, rather than the backend it will never call.
  const judgeSummary = judging.judges.length > 0 ? judging.summary : run.collection !== undefined ? GROUND_TRUTH_ONLY : NO_JUDGES;
  const tracker = progress(() => (judging.backend.kind === 'llm' ? judging.backend.service.usage() : {}), { cacheOff: run.noCache });
  // The input's size is looked at only for a run that could use threads.
  const threads =
    infrastructure.storeFolder !== undefined && judgedWithoutCalls(judging)
      ? PipelineThreads.start(infrastructure.storeFolder, run.threads ?? (await defaultThreadsFor(run)), run.threadEntry)
      : undefined;
  try {
    // The canary set first: ingest reads it when the dataset's upload starts the run.
    await uploadCanary(infrastructure.store, run.suite, run.config, run.canaryPath);
    const { key: datasetKey, etag } = await uploadInput(infrastructure.store, run.suite, run);
    const trigger = `cli:${now().toISOString()}`;
    // The id ingest will derive (the same function): known before the long part starts, so an interrupted run can be resumed.
    const { runId } = runIdentityOf({ datasetKey, etag, config: runConfig, trigger });
    run.onRunId?.(runId, threads?.size ?? 0);
    // Held until the report is written: an `assay resume` of this run meanwhile is refused instead of judging every case again.
    return await withRunLease(
      infrastructure.store,
      runId,
      'assay run',
      `assay status ${runId} ${infrastructure.storeOptions}`,
      async () => {
        const outcome = await ingestDataset(
          {
            store: infrastructure.store,
            cases: infrastructure.cases,
            control: infrastructure.control,
            now,
            ...(threads === undefined ? {} : { collectionWork: threadedCollectionWork(threads) }),
          },
          { datasetKey, etag, suite: run.suite, trigger, config: runConfig, judgeSummary },
        );
        if (outcome.kind === 'duplicate') throw new Error(`Ingest started no run for ${datasetKey}: run ${outcome.runId} has it already`);
        if (outcome.kind === 'rejected') {
          throw new UsageError(
            `--strict: ${outcome.error.file}:${outcome.error.line}: ${outcome.error.message} (fix: ${outcome.error.fix})`,
            1,
          );
        }
        // The canary's cases are judged and counted with the run's own.
        const expectedCases = outcome.cases + (outcome.canaryCases ?? 0);
        tracker.start(expectedCases);
        await run.afterIngest?.(outcome.runId, infrastructure);

        const runJudging = judgingForRuns(place, [{ configHash: hash, judging }]);
        const batch = await batchJudgingDriveOf(runConfig.judge, run.environment, judging, run.detach === true, tracker, now);
        const driven = await driveRun(infrastructure, outcome.runId, {
          expectedCases,
          judgingFor: runJudging.judgingFor,
          tracker,
          now,
          concurrency: run.concurrency,
          ...(threads === undefined ? {} : { threads }),
          ...(batch === undefined ? {} : { batch }),
        }).finally(() => runJudging.close());
        if (driven.kind !== 'reported') return { kind: 'batch', runId: outcome.runId, ended: driven, judgeSummary };
        const files = await copyReport(infrastructure, run.suite, outcome.runId, run.outFolder);
        return { kind: 'reported', runId: outcome.runId, report: driven.report, files, judgeSummary, skippedJudges };
      },
    );
  } finally {
    await threads?.close();
  }
}

/** The run's judging, built before anything is uploaded: a provider or an engine that cannot be set up is a usage error at once. */
function usableJudging(config: RunConfig, place: JudgingPlace): BuiltJudging {
  try {
    return buildJudging(config, place);
  } catch (error) {
    if (error instanceof EngineSetupError) throw new UsageError(error.message);
    throw error;
  }
}

const GROUND_TRUTH_ONLY = 'no judges: ground-truth metrics from the qrels only (give --queries and --corpus to judge the runs)';

/**
 * The judges of a run: the config's list, or the default set of its backend
 * (default-judges.ts). A TREC collection has no responses: without its
 * queries and corpus there is nothing to judge, and with them the default is
 * the default set's chunk judges.
 */
export function judgesFor(
  config: ConfigFile,
  backend: 'llm' | 'lexical',
  collection: TrecCollectionPaths | undefined,
): { judges: JudgeDefinition[]; skippedJudges: string[] } {
  if (collection === undefined || config.judges !== undefined) return judgesForRun(config, backend);
  if (collection.corpus === undefined || collection.queries === undefined) return { judges: [], skippedJudges: [] };
  return {
    judges: judgesForRun(config, backend).judges.filter((judge) => judge.kind === 'llm' && judge.assessment === 'chunk'),
    skippedJudges: [],
  };
}
