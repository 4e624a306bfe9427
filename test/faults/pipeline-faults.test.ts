import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Progress } from '../../cli/run/progress.js';
import { runPipeline } from '../../cli/run/run-pipeline.js';
import { configFileSchema } from '../../shared/config/index.js';
import {
  answeredCalls,
  expectEveryCaseOnce,
  FAULT_PLACES,
  readRunFiles,
  requestsFor,
  useFaultRun,
  writeFaultDataset,
} from './fault-harness.js';

/**
 * The whole pipeline under judge faults, on the embedded default and over the
 * S3/SQS emulator, through the same handlers. Each run's queues hide a
 * received message for 2 s: of simulated time embedded, where the queues,
 * the drive and the judge server's slow answers share one simulated clock,
 * and of the wall's over the emulator.
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

describe.each(FAULT_PLACES)('the pipeline under judge faults, $name', (place) => {
  const fault = useFaultRun(place, { simulatedTime: true });

  async function run(datasetPath: string, options: { concurrency: number; maxRetries: number }) {
    const out = join(fault.folder.path, 'out');
    const outcomes = new CountingProgress({ write: () => true, isTTY: false } as unknown as NodeJS.WriteStream, () => ({}));
    const infrastructure = await fault.infrastructure('assay-faults');
    await runPipeline(
      {
        datasetPath,
        suite: 'faults',
        config: configFileSchema.parse({ judges: ['chunk_relevance'], judge: { max_retries: options.maxRetries } }),
        strict: false,
        noCache: false,
        concurrency: options.concurrency,
        outFolder: out,
        environment: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fault.server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' },
      },
      infrastructure,
      () => outcomes,
    );
    return { ...(await readRunFiles(out)), outcomes };
  }

  it('ends every case evaluated or failed exactly once when half the judge calls answer 500 at concurrency 16', async () => {
    // Prepare: 40 cases, a judge failing half its calls, one SDK retry, so some cases exhaust their receives
    const dataset = await writeFaultDataset(fault.folder, 40);
    fault.server.setFaults({ serverError: 0.5, seed: 7, retryAfterMs: 1 });

    // Act
    const files = await run(dataset.path, { concurrency: 16, maxRetries: 1 });

    // Assess: nothing lost, nothing twice, and the answered calls stay within the pooled pairs
    expectEveryCaseOnce(files, dataset);
    expect(files.report.cases.evaluated).toBeGreaterThan(0);
    expect(answeredCalls(fault.server, 'chunk_relevance')).toBeLessThanOrEqual(dataset.uniquePairs);
    // Every request the server saw is in the report's usage, those of retried and failed deliveries included
    const usage = files.report.judges.chunk_relevance;
    expect((usage?.calls ?? 0) + (usage?.retries ?? 0)).toBe(requestsFor(fault.server, 'chunk_relevance'));
    expect(usage?.errors).toBeGreaterThan(0);
  }, 120_000);

  it('judges every case once when each judge call outlasts the visibility timeout', async () => {
    // Prepare: every call takes 2.5 s against a 2 s visibility timeout
    const dataset = await writeFaultDataset(fault.folder, 8);
    fault.server.setFaults({ slow: 1, slowMs: 2_500 });

    // Act
    const files = await run(dataset.path, { concurrency: 16, maxRetries: 0 });

    // Assess: no case was delivered twice, and every request the server saw was a unique pair
    expectEveryCaseOnce(files, dataset);
    expect(files.report.cases.evaluated).toBe(8);
    expect({ results: files.outcomes.results, retries: files.outcomes.retries }).toEqual({ results: 8, retries: 0 });
    expect(fault.server.log.length).toBeLessThanOrEqual(dataset.uniquePairs);
    expect(answeredCalls(fault.server, 'chunk_relevance')).toBe(dataset.uniquePairs);
  }, 120_000);
});
