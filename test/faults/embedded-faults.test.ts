import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { embeddedInfrastructure } from '../../cli/run/infrastructure.js';
import { runPipeline } from '../../cli/run/run-pipeline.js';
import { judgeConfigSchema } from '../../shared/judges/judge-config.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { Progress } from '../../cli/run/progress.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { answeredCalls, expectEveryCaseOnce, readRunFiles, requestsFor, writeFaultDataset } from './fault-harness.js';

let server: OpenAiTestServer;
let folder: TempFolder;
beforeEach(async () => {
  server = await startOpenAiTestServer({ oracle: catalogOracle });
  folder = await createTempFolder();
});
afterEach(async () => {
  await server.close();
  await folder.remove();
});

/** Counts the judge worker's deliveries of this run's cases: done (a result written) and retried. */
class CountingProgress extends Progress {
  delivered = 0;
  redelivered = 0;
  override caseDone(): void {
    this.delivered++;
  }
  override caseRetried(): void {
    this.redelivered++;
  }
}

async function runEmbedded(datasetPath: string, options: { concurrency: number; maxRetries: number; visibilityTimeoutSeconds?: number }) {
  const out = join(folder.path, 'out');
  const deliveries = new CountingProgress({ write: () => true, isTTY: false } as unknown as NodeJS.WriteStream, () => ({}));
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
    embeddedInfrastructure(join(folder.path, 'store'), options.visibilityTimeoutSeconds),
    () => deliveries,
  );
  return { ...(await readRunFiles(out)), deliveries };
}

describe('the embedded pipeline under faults', () => {
  it('ends every case evaluated or failed exactly once when half the judge calls answer 500 at concurrency 16', async () => {
    // Prepare: 40 cases, a judge failing half its calls, one SDK retry, so some cases exhaust their receives
    const dataset = await writeFaultDataset(folder, 40);
    server.setFaults({ serverError: 0.5, seed: 7, retryAfterMs: 1 });

    // Act
    const files = await runEmbedded(dataset.path, { concurrency: 16, maxRetries: 1 });

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
    const files = await runEmbedded(dataset.path, { concurrency: 16, maxRetries: 0, visibilityTimeoutSeconds: 2 });

    // Assess: no redelivery judged a case again, so every request the server saw was a unique pair
    expectEveryCaseOnce(files, dataset);
    expect(files.report.cases.evaluated).toBe(8);
    expect({ delivered: files.deliveries.delivered, redelivered: files.deliveries.redelivered }).toEqual({ delivered: 8, redelivered: 0 });
    expect(server.log.length).toBeLessThanOrEqual(dataset.uniquePairs);
    expect(answeredCalls(server, 'chunk_relevance')).toBe(dataset.uniquePairs);
  }, 120_000);
});
