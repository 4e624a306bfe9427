import { Command } from 'commander';
import { resolve } from 'node:path';
import { parseRunConfig, readConfigFile, type ConfigFile } from '../../shared/config/index.js';
import { chooseProvider, judgeEnvironmentOf } from '../../shared/judge-client/judge-provider.js';
import { budgetText } from '../../shared/report-render/judge-cost-text.js';
import { renderSummaryTable } from '../../shared/report-render/summary-table.js';
import { terminalName, terminalText } from '../../shared/report-render/terminal-text.js';
import { MAX_CONCURRENCY, MAX_THREADS } from '../../shared/schema/work-limits.js';
import { EXIT_FAILED } from '../failure-message.js';
import { assertWritableFolder, countUpTo, endpointUrl, judgeBaseUrl, suiteName } from '../option-values.js';
import { assertReadableFile } from '../readable-file.js';
import { awsInfrastructure, embeddedInfrastructure } from '../run/store-and-queues.js';
import { MAX_FAILED_DESCRIPTION, MAX_FAILED_FLAGS, maxFailedOf } from '../run/failed-cases-gate.js';
import { belowPassRate, failUnderOf } from '../run/pass-rate-gate.js';
import { noticeOnInterrupt, type InterruptNotice } from '../run/interrupt-notice.js';
import { stoppedByFullDisk } from '../run/full-disk-stop.js';
import type { UnfinishedRun } from '../run/unfinished-run.js';
import { Progress } from '../run/progress.js';
import { enforceReportGate, locateIn } from '../run/report-gate.js';
import { FAIL_ON_REGRESSION_DESCRIPTION, regressionGate, regressionLines } from '../run/regression-gate.js';
import { judgesFor, runPipeline } from '../run/run-pipeline.js';
import { lexicalStandIn, requestText } from '../run/judge-key-check.js';
import type { LlmRequest } from '../../shared/config/llm-request.js';
import { runInputOf, withCollectionOptions, type CollectionOptions } from '../run/input-options.js';
import { configProblems, UsageError } from '../usage-error.js';
import { canaryFileOf } from '../run/canary-upload.js';
import { stoppedRunError } from '../run/batch-judging-progress.js';
import { batchSettingsOf } from '../../shared/judge-client/batch-settings.js';
import { shellWord } from '../shell-word.js';
import { judgeProxyNotice } from '../run/proxy-notice.js';
import type { RunInput } from '../run/upload-input.js';

interface RunOptions extends CollectionOptions {
  config?: string;
  judges?: string;
  store: string;
  out: string;
  concurrency: string;
  awsEndpoint?: string;
  strict?: boolean;
  cache: boolean;
  suite: string;
  failUnder?: string;
  failOnRegression?: boolean;
  maxFailed?: string;
  threads?: string;
  batch?: boolean;
  detach?: boolean;
}

/**
 * `assay run DATASET`: the whole pipeline on the embedded default (a local
 * store folder and in-process queues), or with --aws-endpoint over S3 and SQS.
 */
export function runCommand(): Command {
  const command = new Command('run')
    .description('Evaluate a dataset or TREC runs: ingest, judge every case, reduce, and write the report')
    .argument('[dataset]', 'dataset file (.jsonl, .json or .csv); or give a TREC collection with --qrels and --run')
    .option('--config <file>', 'config file (YAML or JSON): judge settings, judges, run settings')
    .option('--judges <ids>', 'comma-separated judge ids to run (overrides the config); see `assay judges`')
    .option('--store <folder>', 'local store folder (runs, reports, judge cache)', '.assay')
    .option('--out <folder>', 'folder for report.json, report.md and cases.jsonl', 'assay-report')
    .option('--concurrency <n>', `judge calls in flight at once, 1 to ${MAX_CONCURRENCY}`, '8')
    .option('--aws-endpoint <url>', 'run over S3 and SQS at this endpoint (an emulator or AWS) instead of the embedded default')
    .option('--suite <name>', 'suite name: datasets/<suite>/ and reports/<suite>/ in the store', 'default')
    .option('--strict', 'stop at the first bad row instead of running the good ones')
    .option('--no-cache', 'judge every case again instead of reusing cached judgments')
    .option(
      '--threads <n>',
      `worker threads for the CPU-bound steps of an embedded run that makes no judge call (ground truth, lexical judges, the reduce); 1 keeps them in this thread (default: one a core for a TREC collection of 4 MiB or more, or a dataset of 4 MiB or more past two cores; else 1; at most ${MAX_THREADS})`,
    )
    .option(MAX_FAILED_FLAGS, MAX_FAILED_DESCRIPTION)
    .option('--fail-under <rate>', "exit 1 when an engine's share of cases meeting the config's thresholds is below this (0 to 1)")
    .option('--fail-on-regression', FAIL_ON_REGRESSION_DESCRIPTION)
    .option('--batch', "judge through the provider's batch API, at its batch price (judge.batch in the config)")
    .option('--detach', 'with batch judging: return once the jobs are submitted; `assay resume RUN` finishes the run')
    .addHelpText(
      'after',
      '\nExit codes: 0 the report is written and at most --max-failed cases (default 0) failed, are\n' +
        'missing or lack a judgment (a judgment that ended in error; a warning then says so), or with\n' +
        '--detach the batch jobs are submitted; 1, the report still written, when nothing could be\n' +
        'evaluated (no valid row, no case evaluated, every judge call failed), when more cases failed,\n' +
        "are missing or lack a judgment than --max-failed allows, when an engine's pass rate is under\n" +
        '--fail-under, or with --fail-on-regression when a metric got significantly worse than the\n' +
        "suite's baseline (checked in that order; each regression is one stderr line, gate or not); 1\n" +
        'also when a batch job failed validation (the run can be resumed) and for an unexpected error;\n' +
        '2 a usage error.',
    );
  return withCollectionOptions(command).action(async (dataset: string | undefined, options: RunOptions) => {
    const input = await runInputOf(dataset, options);
    const concurrency = countUpTo('--concurrency', options.concurrency, MAX_CONCURRENCY);
    const threads = options.threads === undefined ? undefined : countUpTo('--threads', options.threads, MAX_THREADS);
    suiteName(options.suite);
    const endpoint = endpointUrl(options.awsEndpoint);
    judgeBaseUrl(process.env);
    const config = await configOf(options);
    const canaryPath = await canaryFileOf(config, options.config);
    // Before any work: a run that asks for an LLM judge without its key stops here; one that asks for none says the lexical judge stands in.
    const lexicalNotice = lexicalStandIn({
      config,
      environment: judgeEnvironmentOf(process.env),
      callsJudges: judgesFor(config, 'llm', input.collection).judges.some((judge) => judge.kind !== 'deterministic'),
      describe: (request) => requestOf(request, options),
    });
    const proxyNote = proxyNoticeFor(config, input.collection);
    if (options.detach === true && batchSettingsOf(config.judge.batch) === undefined) {
      throw new UsageError('--detach applies to batch judging only: add --batch, or judge.batch: true to the config');
    }
    const failUnder = failUnderOf(options.failUnder, config.thresholds !== undefined);
    const maxFailed = maxFailedOf(options.maxFailed);
    // Checked before the run rather than found unusable after it.
    await assertWritableFolder('--out', resolve(options.out));
    if (endpoint === undefined) await assertWritableFolder('--store', resolve(options.store));
    const infrastructure = endpoint === undefined ? embeddedInfrastructure(resolve(options.store)) : await awsInfrastructure(endpoint);
    let interruptNotice: InterruptNotice | undefined;
    let unfinished: UnfinishedRun | undefined;
    const result = await runPipeline(
      {
        ...input,
        suite: options.suite,
        config,
        ...(canaryPath === undefined ? {} : { canaryPath }),
        strict: options.strict === true,
        noCache: !options.cache,
        concurrency,
        outFolder: resolve(options.out),
        environment: judgeEnvironmentOf(process.env),
        ...(threads === undefined ? {} : { threads }),
        detach: options.detach === true,
        onRunId: (runId, workerThreads) => {
          // First on both streams: whoever watches the run can resume it if this process dies.
          process.stdout.write(`run ${runId}\n`);
          const where = workerThreads > 0 ? `${infrastructure.description}, ${workerThreads} worker threads` : infrastructure.description;
          const finish = `assay resume ${runId}${terminalName(resumeOptions(options))}`;
          unfinished = { store: infrastructure.store, runId, finish };
          process.stderr.write(`assay: run ${runId} on ${terminalName(where)}; if interrupted, finish it with: ${finish}\n`);
          interruptNotice = noticeOnInterrupt(process.stderr, unfinished);
          if (lexicalNotice !== undefined) process.stderr.write(`${lexicalNotice}\n`);
          if (proxyNote !== undefined) process.stderr.write(`${terminalName(proxyNote)}\n`);
          for (const warning of infrastructure.warnings) process.stderr.write(`${warning}\n`);
        },
      },
      infrastructure,
      (usage, progressOptions) => new Progress(process.stderr, usage, progressOptions),
    )
      .catch(async (error: unknown) => {
        throw await stoppedByFullDisk(error, unfinished);
      })
      .finally(() => interruptNotice?.release());
    if (result.kind === 'batch') {
      const finish = `assay resume ${result.runId}${resumeOptions(options)}`;
      if (result.ended.kind === 'stopped') throw stoppedRunError(result.ended.ending, finish);
      const jobs = result.ended.step.jobs.map((job) => job.provider_id ?? job.key).join(', ');
      process.stdout.write(
        `${terminalText(`${result.judgeSummary}\nbatch jobs submitted: ${jobs}\nthe run waits for them; finish it with: ${finish}`)}\n`,
      );
      return;
    }
    const lines = [
      result.judgeSummary,
      ...(result.skippedJudges.length > 0 ? [`not run (they need an LLM judge): ${result.skippedJudges.join(', ')}`] : []),
      '',
      renderSummaryTable(result.report),
      '',
      'report files:',
      ...result.files.map((file) => `  ${file}`),
    ];
    process.stdout.write(`${terminalText(lines.join('\n'))}\n`);
    if (result.report.judge_budget !== undefined) process.stderr.write(`assay: ${budgetText(result.report.judge_budget)}\n`);
    // Warnings (a judge below run.min_agreement) do not change the exit status.
    for (const warning of result.report.warnings ?? []) process.stderr.write(`assay: warning: ${terminalName(warning)}\n`);
    for (const line of regressionLines(result.report)) process.stderr.write(`${line}\n`);
    await enforceReportGate(result.report, infrastructure.store, locateIn(infrastructure), maxFailed, process.stderr);
    // After the failed cases: a pass rate over only the cases that happened to end is no gate.
    const gate = failUnder === undefined ? undefined : belowPassRate(result.report, failUnder);
    if (gate !== undefined) throw new UsageError(gate, EXIT_FAILED);
    // Last: the checks above judge the run on its own, and a comparison is read only once the run's own cases pass them.
    const regressed = options.failOnRegression === true ? regressionGate(result.report) : undefined;
    if (regressed !== undefined) throw new UsageError(regressed, EXIT_FAILED);
  });
}

/** The options `assay resume` needs to find the run, as a shell reads them back (a store path with a space is quoted). */
function resumeOptions(options: RunOptions): string {
  if (options.awsEndpoint !== undefined) return ` --aws-endpoint ${shellWord(options.awsEndpoint)}`;
  return options.store === '.assay' ? '' : ` --store ${shellWord(options.store)}`;
}

/** The proxy notice (proxy-notice.ts) of a run that calls an LLM judge; none for a run judged offline. */
function proxyNoticeFor(config: ConfigFile, collection: RunInput['collection']): string | undefined {
  if (!judgesFor(config, 'llm', collection).judges.some((judge) => judge.kind !== 'deterministic')) return undefined;
  return judgeProxyNotice(config.judge, process.env);
}

/** What asked for an LLM judge, as the user gave it: an option, the config file, or an environment variable. */
function requestOf(request: LlmRequest, options: RunOptions): string {
  if (request.kind === 'setting' && request.setting === 'judge.batch' && options.batch === true) return '--batch';
  if (request.kind === 'judge' && options.judges !== undefined) return requestText(request, 'in --judges');
  return requestText(request, `in ${options.config ?? 'the config'}`);
}

async function configOf(options: RunOptions): Promise<ConfigFile> {
  let raw: unknown = {};
  let file = 'defaults';
  if (options.config !== undefined) {
    await assertReadableFile(options.config, 'config');
    const read = await readConfigFile(options.config);
    if (!read.ok) throw configProblems(read.error);
    raw = read.value;
    file = options.config;
  }
  if (options.batch === true) {
    const object = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
    const judge = typeof object.judge === 'object' && object.judge !== null ? (object.judge as Record<string, unknown>) : {};
    // --batch turns batch judging on and keeps the config's own batch settings.
    const batch =
      typeof judge.batch === 'object' && judge.batch !== null ? { ...(judge.batch as Record<string, unknown>), enabled: true } : true;
    raw = { ...object, judge: { ...judge, batch } };
    file = options.config === undefined ? '--batch' : `${options.config} with --batch`;
  }
  if (options.judges !== undefined) {
    if (options.judges.trim() === '') throw new UsageError(`--judges got ""; expected comma-separated judge ids (see assay judges)`);
    raw = {
      ...(typeof raw === 'object' && raw !== null ? raw : {}),
      judges: options.judges
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    };
    file = options.config === undefined ? '--judges' : `${file} with --judges`;
  }
  // Parsed once, where the run starts: ASSAY_JUDGE_MODEL replaces the config's default model here, so the ceiling needs its price too.
  const checked = parseRunConfig(raw, file, {
    ASSAY_JUDGE_MODEL: process.env.ASSAY_JUDGE_MODEL,
    ASSAY_JUDGE_PROVIDER: process.env.ASSAY_JUDGE_PROVIDER,
  });
  if (!checked.ok) throw configProblems(checked.error);
  // A provider without what it needs (azure without judge.azure, bedrock without a region) stops the run before any work.
  const provider = chooseProvider(checked.value.judge, judgeEnvironmentOf(process.env));
  if (!provider.ok && 'error' in provider) throw new UsageError(`${file}: ${provider.error}`);
  return checked.value;
}
