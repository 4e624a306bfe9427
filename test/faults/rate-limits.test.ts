import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Progress } from '../../cli/run/progress.js';
import { runPipeline } from '../../cli/run/run-pipeline.js';
import { configFileSchema } from '../../shared/config/index.js';
import type { OpenAiTestServer } from '../support/openai-test-server.js';
import { SILENT_STREAM } from '../support/silent-progress.js';
import { answeredCalls, expectEveryCaseOnce, readRunFiles, requestsFor, useFaultRun, writeFaultDataset } from './fault-harness.js';

/**
 * The embedded pipeline against a judge with a requests-per-minute quota, in
 * short: 20 requests per 2 s sliding window, 50 ms an answer, 429 with
 * retry-after-ms and OpenAI's x-ratelimit-* headers past it. 6 cases pool 24
 * judgments, so the quota binds once, for the last 4.
 */

class CountingProgress extends Progress {
  casesRetried = 0;
  override caseRetried(): void {
    this.casesRetried++;
  }
}

const QUOTA = { requests: 20, windowMs: 2_000 };

/** Request bodies the server answered more than once: a judgment paid twice. */
function answeredTwice(server: OpenAiTestServer): number {
  const counts = new Map<string, number>();
  for (const entry of server.log)
    if (entry.outcome === 'answer')
      counts.set(JSON.stringify(entry.request.messages), (counts.get(JSON.stringify(entry.request.messages)) ?? 0) + 1);
  return [...counts.values()].filter((count) => count > 1).length;
}

describe('the pipeline at a judge rate limit', () => {
  const fault = useFaultRun({ name: 'embedded', onEmulator: false });

  async function run(judge: object) {
    const dataset = await writeFaultDataset(fault.folder, 6);
    fault.server.setFaults({ latencyMs: 50, requestLimit: QUOTA });
    const out = join(fault.folder.path, 'out');
    const outcomes = new CountingProgress(SILENT_STREAM, () => ({}));
    await runPipeline(
      {
        datasetPath: dataset.path,
        suite: 'rate-limits',
        config: configFileSchema.parse({ judges: ['chunk_relevance'], judge }),
        strict: false,
        noCache: false,
        concurrency: 16,
        outFolder: out,
        environment: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fault.server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' },
      },
      await fault.infrastructure('assay-rate-limits'),
      () => outcomes,
    );
    const files = await readRunFiles(out);
    const usage = files.report.judges.chunk_relevance;
    const refused = fault.server.log.filter((entry) => entry.status === 429).length;
    return { dataset, files, usage, refused, retriedCases: outcomes.casesRetried };
  }

  it('loses no case and judges each pair once without a rate setting, even with no SDK retry to spend: the 429s wait and are sent again', async () => {
    // Act
    const { dataset, files, usage, refused, retriedCases } = await run({ max_retries: 0 });

    // Assess: every case evaluated on its first delivery, each pair answered once
    expectEveryCaseOnce(files, dataset);
    expect(files.report.cases.evaluated).toBe(6);
    expect(retriedCases).toBe(0);
    expect(answeredCalls(fault.server, 'chunk_relevance')).toBe(dataset.uniquePairs);
    expect(answeredTwice(fault.server)).toBe(0);
    // Refusals bounded: before the server has said anything, the calls in flight may each be refused once (16 slots)
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThanOrEqual(16);
    // Every request the server saw is in the report's usage, the refused ones by name
    expect({ requests: (usage?.calls ?? 0) + (usage?.retries ?? 0), rateLimited: usage?.rate_limited }).toEqual({
      requests: requestsFor(fault.server, 'chunk_relevance'),
      rateLimited: refused,
    });
  }, 60_000);

  it('paces at judge.rate_limit so the server refuses nothing', async () => {
    // Act: the quota is 600 requests a minute
    const { dataset, files, refused, retriedCases } = await run({ max_retries: 0, rate_limit: { requests_per_minute: 600 } });

    // Assess
    expectEveryCaseOnce(files, dataset);
    expect({ evaluated: files.report.cases.evaluated, retriedCases }).toEqual({ evaluated: 6, retriedCases: 0 });
    expect(answeredTwice(fault.server)).toBe(0);
    expect(refused).toBeLessThanOrEqual(1);
  }, 60_000);
});
