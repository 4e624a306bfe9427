import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { awsInfrastructure, embeddedInfrastructure, type Infrastructure } from '../../cli/run/infrastructure.js';
import { Progress } from '../../cli/run/progress.js';
import { runPipeline } from '../../cli/run/run-pipeline.js';
import { judgeConfigSchema } from '../../shared/judges/judge-config.js';
import { startFauxqs, type Fauxqs } from '../support/fauxqs.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { answeredCalls, expectEveryCaseOnce, readRunFiles, requestsFor, writeFaultDataset } from './fault-harness.js';

/**
 * The whole pipeline under judge faults, on the embedded default and over the
 * S3/SQS emulator, through the same handlers. Each run's queues hide a
 * received message for 2 s.
 */

/** Counts the judge worker's outcomes for this run's cases: a result written, or a retry. */
class CountingProgress extends Progress {
  results = 0;
  retries = 0;
  override caseDone(): void {
    this.results++;
  }
  override caseRetried(): void {
    this.retries++;
  }
}

const VISIBILITY_TIMEOUT_SECONDS = 2;

const infrastructures: readonly [string, (folder: TempFolder, fauxqs: () => Promise<Fauxqs>) => Promise<Infrastructure>][] = [
  ['embedded', async (folder) => embeddedInfrastructure(join(folder.path, 'store'), VISIBILITY_TIMEOUT_SECONDS)],
  ['over the S3/SQS emulator', async (_folder, fauxqs) => awsInfrastructure((await fauxqs()).endpoint, 'assay-faults', VISIBILITY_TIMEOUT_SECONDS)],
];

describe.each(infrastructures)('the pipeline under judge faults, %s', (_name, infrastructureFor) => {
  let server: OpenAiTestServer;
  let folder: TempFolder;
  let emulator: Fauxqs | undefined;
  beforeEach(async () => {
    server = await startOpenAiTestServer({ oracle: catalogOracle });
    folder = await createTempFolder();
  });
  afterEach(async () => {
    await server.close();
    await emulator?.close();
    emulator = undefined;
    await folder.remove();
  });

  async function run(datasetPath: string, options: { concurrency: number; maxRetries: number }) {
    const out = join(folder.path, 'out');
    const outcomes = new CountingProgress({ write: () => true, isTTY: false } as unknown as NodeJS.WriteStream, () => ({}));
    const infrastructure = await infrastructureFor(folder, async () => (emulator ??= await startFauxqs()));
    await runPipeline(
      {
        datasetPath,
        suite: 'faults',
        config: judgeConfigSchema.parse({ judges: ['chunk_relevance'], judge: { max_retries: options.maxRetries } }),
        strict: false,
        noCache: false,
        concurrency: options.concurrency,
        outFolder: out,
        environment: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' },
      },
      infrastructure,
      () => outcomes,
    );
    return { ...(await readRunFiles(out)), outcomes };
  }

  it('ends every case evaluated or failed exactly once when half the judge calls answer 500 at concurrency 16', async () => {
    // Prepare: 40 cases, a judge failing half its calls, one SDK retry, so some cases exhaust their receives
    const dataset = await writeFaultDataset(folder, 40);
    server.setFaults({ serverError: 0.5, seed: 7, retryAfterMs: 1 });

    // Act
    const files = await run(dataset.path, { concurrency: 16, maxRetries: 1 });

    // Assess: nothing lost, nothing twice, and the answered calls stay within the pooled pairs
    expectEveryCaseOnce(files, dataset);
    expect(files.report.cases.evaluated).toBeGreaterThan(0);
    expect(answeredCalls(server, 'chunk_relevance')).toBeLessThanOrEqual(dataset.uniquePairs);
    // Every request the server saw is in the report's usage, those of retried and failed deliveries included
    const usage = files.report.judges.chunk_relevance;
    expect((usage?.calls ?? 0) + (usage?.retries ?? 0)).toBe(requestsFor(server, 'chunk_relevance'));
    expect(usage?.errors).toBeGreaterThan(0);
  }, 120_000);

  it('judges every case once when each judge call outlasts the visibility timeout', async () => {
    // Prepare: every call takes 2.5 s against a 2 s visibility timeout
    const dataset = await writeFaultDataset(folder, 8);
    server.setFaults({ slow: 1, slowMs: 2_500 });

    // Act
    const files = await run(dataset.path, { concurrency: 16, maxRetries: 0 });

    // Assess: no case was delivered twice, and every request the server saw was a unique pair
    expectEveryCaseOnce(files, dataset);
    expect(files.report.cases.evaluated).toBe(8);
    expect({ results: files.outcomes.results, retries: files.outcomes.retries }).toEqual({ results: 8, retries: 0 });
    expect(server.log.length).toBeLessThanOrEqual(dataset.uniquePairs);
    expect(answeredCalls(server, 'chunk_relevance')).toBe(dataset.uniquePairs);
  }, 120_000);
});
