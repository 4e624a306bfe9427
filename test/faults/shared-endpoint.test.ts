import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { awsInfrastructure } from '../../cli/run/store-and-queues.js';
import { runPipeline } from '../../cli/run/run-pipeline.js';
import { configFileSchema } from '../../shared/config/index.js';
import { startFauxqs, type Fauxqs } from '../support/fauxqs.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { silentProgress } from '../support/silent-progress.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { expectEveryCaseOnce, readRunFiles, writeFaultDataset } from './fault-harness.js';

/**
 * Two `assay run`s at once against one S3/SQS endpoint share its bucket and
 * queues: each driver receives the other's case messages too. Every case must
 * still be judged with its own run's judges and counted in its own run.
 */
let server: OpenAiTestServer;
let emulator: Fauxqs;
let folder: TempFolder;
beforeEach(async () => {
  server = await startOpenAiTestServer({ oracle: catalogOracle });
  emulator = await startFauxqs();
  folder = await createTempFolder();
});
afterEach(async () => {
  await server.close();
  await emulator.close();
  await folder.remove();
});

async function runAt(datasetPath: string, suite: string, judges: readonly string[]) {
  const out = join(folder.path, `out-${suite}`);
  const infrastructure = await awsInfrastructure(emulator.endpoint, 'assay-shared', 2);
  const result = await runPipeline(
    {
      datasetPath,
      suite,
      config: configFileSchema.parse({ judges }),
      strict: false,
      noCache: false,
      concurrency: 8,
      outFolder: out,
      environment: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' },
    },
    infrastructure,
    silentProgress,
  );
  return { ...(await readRunFiles(out)), runId: result.runId };
}

function judgedMetrics(metrics: Record<string, number>): string[] {
  return [
    ...new Set(
      Object.keys(metrics)
        .filter((name) => name.includes('/llm_judged/'))
        .map((name) => name.split('/')[2] ?? name),
    ),
  ].sort();
}

describe('two runs at once over one S3/SQS endpoint', () => {
  it('judges and reports each run with exactly its own judges', async () => {
    // Prepare: two datasets, two suites, a different judge for each run
    const first = await writeFaultDataset(folder, 30, 'first.jsonl');
    const second = await writeFaultDataset(folder, 30, 'second.jsonl');

    // Act: both at once, on the same bucket and queues
    const [chunks, grounded] = await Promise.all([
      runAt(first.path, 'chunks', ['chunk_relevance']),
      runAt(second.path, 'grounded', ['groundedness']),
    ]);

    // Assess
    expectEveryCaseOnce(chunks, first);
    expectEveryCaseOnce(grounded, second);
    expect(chunks.report.cases.evaluated).toBe(30);
    expect(grounded.report.cases.evaluated).toBe(30);
    for (const engine of ['bm25', 'hybrid']) {
      expect(judgedMetrics(chunks.report.engines[engine] ?? {})).toEqual(['chunk_relevance']);
      expect(judgedMetrics(grounded.report.engines[engine] ?? {})).toEqual(['groundedness']);
    }
    expect(Object.keys(chunks.report.judges)).toEqual(['chunk_relevance']);
    expect(Object.keys(grounded.report.judges)).toEqual(['groundedness']);
  }, 120_000);
});
