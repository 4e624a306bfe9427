import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { reportSchema, type Report } from '../../shared/schema/report.js';
import { runBuiltCli, type BuiltCliOptions, type BuiltCliOutcome } from './built-cli.js';
import type { Oracle } from './chat-completion-answer.js';
import { catalogOracle } from './judge-oracle.js';
import { REPOSITORY_ROOT } from './markdown.js';
import { startOpenAiBatchServer, type BatchObject, type BilledTokens, type OpenAiBatchServer } from './openai-batch-server.js';
import { startOpenAiTestServer, type OpenAiTestServer } from './openai-test-server.js';
import { startSplitJudgeServer, type SplitJudgeServer } from './split-judge-server.js';
import { filesUnder } from './store-files.js';
import { createTempFolder, type TempFolder } from './temp-folder.js';

/**
 * A batch-judged `assay run` through the built bin against a provider that
 * misbehaves: the OpenAI batch test server behind one base URL with an
 * online chat completions server (the run's fallbacks), each run in a
 * folder of its own (store, report, config). The dataset is the example
 * two-engine set, judged by two judges.
 */
export const FAULT_DATASET = join(REPOSITORY_ROOT, 'examples', 'datasets', 'search-assistant.jsonl');
export const FAULT_JUDGES = 'chunk_relevance,correctness';
export const FAULT_KEY = 'sk-batch-fault-0123456789abcdefghij';
export const FAULT_PRICES = { currency: 'USD', models: { 'judge-model': { input_per_million: 2, output_per_million: 8 } } };

export interface FaultyProvider {
  readonly batch: OpenAiBatchServer;
  readonly online: OpenAiTestServer;
  readonly split: SplitJudgeServer;
  close(): Promise<void>;
}

/** The batch server (stepping each job once a look), the online server, and the one base URL in front of both. */
export async function startFaultyProvider(oracle: Oracle = catalogOracle): Promise<FaultyProvider> {
  const batch = await startOpenAiBatchServer({ oracle });
  const online = await startOpenAiTestServer({ oracle });
  const split = await startSplitJudgeServer({ online: online.baseUrl, batch: batch.baseUrl });
  return {
    batch,
    online,
    split,
    close: async () => {
      await split.close();
      await Promise.all([batch.close(), online.close()]);
    },
  };
}

export interface FaultRun {
  readonly folder: TempFolder;
  readonly store: string;
  readonly out: string;
  /** `assay ARGS... --store S --out O` with the provider's environment. */
  assay(args: readonly string[], options?: BuiltCliOptions): Promise<BuiltCliOutcome>;
  /** `assay run` of the dataset, batch judged, with `batch` settings added to the config's judge.batch, and `judge` settings to its judge section. */
  run(
    batch?: Readonly<Record<string, unknown>>,
    extra?: readonly string[],
    options?: BuiltCliOptions,
    judge?: Readonly<Record<string, unknown>>,
  ): Promise<BuiltCliOutcome>;
  report(): Promise<Report>;
  /** Every file under the store and report folders, with its text. */
  files(): Promise<{ path: string; text: string }[]>;
  remove(): Promise<void>;
}

export async function faultRun(baseUrl: string): Promise<FaultRun> {
  const folder = await createTempFolder();
  const store = join(folder.path, 'store');
  const out = join(folder.path, 'out');
  const env = { OPENAI_API_KEY: FAULT_KEY, OPENAI_BASE_URL: baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' };
  const assay = (args: readonly string[], options: BuiltCliOptions = {}) =>
    runBuiltCli([...args, '--store', store, ...(args[0] === 'status' ? [] : ['--out', out])], {
      ...options,
      env: { ...env, ...options.env },
    });
  return {
    folder,
    store,
    out,
    assay,
    async run(batch = {}, extra = [], options = {}, judge = {}) {
      const config = await folder.write(
        'batch.json',
        JSON.stringify({ judge: { prices: FAULT_PRICES, ...judge, batch: { poll_seconds: 0.05, ...batch } } }),
      );
      return assay(['run', FAULT_DATASET, '--judges', FAULT_JUDGES, '--config', config, ...extra], options);
    },
    report: async () => reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8'))),
    files: async () => [...(await filesUnder(store)), ...(await filesUnder(out))],
    remove: () => folder.remove(),
  };
}

/** The run id `assay run` prints on its first line. */
export function runIdOf(outcome: BuiltCliOutcome): string {
  return /^run (r-[0-9a-f]{16})$/m.exec(outcome.stdout)?.[1] ?? '';
}

/** The batch tokens report.json counts for the judge model. */
export function batchTokensOf(report: Report): { input: number; output: number } {
  const model = report.judge_cost?.models['judge-model'];
  return { input: model?.batch_input_tokens ?? 0, output: model?.batch_output_tokens ?? 0 };
}

/** A test file's faulty provider, with the clean run every faulty one is held to. */
export interface FaultSuite {
  readonly provider: FaultyProvider;
  /** The clean run's report, and how many requests its one job held. */
  readonly clean: { readonly report: Report; readonly requests: number };
  /** A run in a folder of its own, removed after the file. */
  newRun(): Promise<FaultRun>;
  /** Each request id's lines sent since `before` (a snapshot of the server's counts): a run's own. */
  sentSince(before: ReadonlyMap<string, number>): number[];
  /** The batches created since there were `before` of them, as the API shows them. */
  batchesSince(before: number): BatchObject[];
  /** The tokens the batch server billed since `before` (a snapshot of its bill), as report.json counts batch tokens. */
  billedSince(before: BilledTokens): { input: number; output: number };
}

/**
 * Registers the file's hooks: the provider and a clean run before the tests,
 * the faults cleared after each, everything removed after the file.
 */
export function useFaultyProvider(): FaultSuite {
  const state: { provider?: FaultyProvider; clean?: FaultSuite['clean'] } = {};
  const runs: FaultRun[] = [];
  const provider = (): FaultyProvider => {
    if (state.provider === undefined) throw new Error('the provider is started in beforeAll: read it inside a test');
    return state.provider;
  };
  const newRun = async (): Promise<FaultRun> => {
    const run = await faultRun(provider().split.baseUrl);
    runs.push(run);
    return run;
  };
  beforeAll(async () => {
    state.provider = await startFaultyProvider();
    const reference = await newRun();
    const outcome = await reference.run();
    if (outcome.exitCode !== 0) throw new Error(`the clean run exited ${outcome.exitCode}: ${outcome.stderr}`);
    const [job] = state.provider.batch.batches.values();
    state.clean = { report: await reference.report(), requests: job?.toObject().request_counts?.total ?? 0 };
  }, 60_000);
  afterEach(() => state.provider?.batch.setFaults({}));
  afterAll(async () => {
    await Promise.all(runs.map((run) => run.remove()));
    await state.provider?.close();
  });
  return {
    get provider() {
      return provider();
    },
    get clean() {
      if (state.clean === undefined) throw new Error('the clean run is made in beforeAll: read it inside a test');
      return state.clean;
    },
    newRun,
    sentSince: (before) => [...provider().batch.sent].map(([id, times]) => times - (before.get(id) ?? 0)).filter((times) => times > 0),
    batchesSince: (before) => [...provider().batch.batches.values()].slice(before).map((batch) => batch.toObject()),
    billedSince: (before) => {
      const billed = provider().batch.billed();
      return { input: billed.input_tokens - before.input_tokens, output: billed.output_tokens - before.output_tokens };
    },
  };
}
