import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awsInfrastructure, embeddedInfrastructure, type Infrastructure } from '../../cli/run/store-and-queues.js';
import { runPipeline } from '../../cli/run/run-pipeline.js';
import { configFileSchema } from '../../shared/config/index.js';
import { reportSchema, type Report } from '../../shared/schema/report.js';
import { startFauxqs } from '../support/fauxqs.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { silentProgress } from '../support/silent-progress.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * The same handlers over the S3 and SQS wire protocols (fauxqs on 127.0.0.1).
 * fauxqs 1.9.2 delivers no S3 event notifications, so, as `assay run
 * --aws-endpoint` does everywhere, the run builds the S3 event from the
 * uploaded object and calls the ingest handler with it; and it ignores
 * If-None-Match, which this test does not rely on.
 */
const DATASET = join(import.meta.dirname, '..', '..', 'examples', 'datasets', 'search-assistant.jsonl');

let fauxqs: Awaited<ReturnType<typeof startFauxqs>>;
let judgeServer: OpenAiTestServer;
let folder: TempFolder;
beforeAll(async () => {
  fauxqs = await startFauxqs();
  judgeServer = await startOpenAiTestServer({ oracle: catalogOracle });
  folder = await createTempFolder();
});
afterAll(async () => {
  await fauxqs.close();
  await judgeServer.close();
  await folder.remove();
});

async function reportOf(infrastructure: Infrastructure, name: string): Promise<Report> {
  const out = join(folder.path, name);
  await runPipeline(
    {
      datasetPath: DATASET,
      suite: 'example',
      config: configFileSchema.parse({ judges: ['chunk_relevance', 'correctness', 'document_recall'] }),
      strict: false,
      noCache: true,
      concurrency: 4,
      outFolder: out,
      environment: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: judgeServer.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' },
    },
    infrastructure,
    silentProgress,
  );
  return reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
}

describe('the pipeline over S3 and SQS (fauxqs)', () => {
  it('gives the same report metrics as the embedded default', async () => {
    const embedded = await reportOf(embeddedInfrastructure(join(folder.path, 'store'), 1), 'embedded');
    const overAws = await reportOf(await awsInfrastructure(fauxqs.endpoint, 'assay-test', 2), 'aws');
    expect(overAws.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    expect(overAws.engines).toEqual(embedded.engines);
    expect(overAws.dataset).toBe(embedded.dataset);
  });
});
