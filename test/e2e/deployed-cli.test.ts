import type { Context } from 'aws-lambda';
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GetQueueUrlCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as recordFailure } from '../../functions/failure-recorder.js';
import { handler as ingest } from '../../functions/ingest.js';
import { handler as judgeCases } from '../../functions/judge-worker.js';
import { handler as reduce } from '../../functions/reducer.js';
import { createAwsClients, ensureAwsResources } from '../../shared/ports/aws-clients.js';
import { runEventSources, s3ObjectCreatedEvent } from '../../shared/ports/lambda-event-source.js';
import { startFauxqs, type Fauxqs } from '../support/fauxqs.js';
import { bucketStore } from '../../cli/run/bucket-store.js';
import { runCli } from '../support/run-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * `assay submit`, `status` and `report` against a stack's bucket on fauxqs,
 * with the Lambda handlers run by the local event source. fauxqs delivers no
 * S3 notifications, so the test hands the ingest handler the event S3 would
 * send for the uploaded object.
 */
const DATASET = join(import.meta.dirname, '..', '..', 'examples', 'datasets', 'search-assistant.jsonl');
const BUCKET = 'assay-deployed';
const context = { getRemainingTimeInMillis: () => 900_000 } as Context;
const savedEnvironment = { ...process.env };
let fauxqs: Fauxqs;
let folder: TempFolder;
let resources: Awaited<ReturnType<typeof ensureAwsResources>>;

beforeAll(async () => {
  fauxqs = await startFauxqs();
  folder = await createTempFolder();
  const clients = createAwsClients({ endpoint: fauxqs.endpoint });
  resources = await ensureAwsResources(clients, {
    bucket: BUCKET,
    casesQueue: 'cases',
    deadLetterQueue: 'cases-dlq',
    controlQueue: 'control',
    maxReceiveCount: 3,
    visibilityTimeoutSeconds: 2,
  });
  const url = async (name: string) => (await clients.sqs.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl as string;
  Object.assign(process.env, {
    ASSAY_BUCKET: BUCKET,
    ASSAY_CASES_QUEUE_URL: await url('cases'),
    ASSAY_CONTROL_QUEUE_URL: await url('control'),
    ASSAY_AWS_ENDPOINT: fauxqs.endpoint,
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    POWERTOOLS_METRICS_DISABLED: 'true',
  });
  delete process.env.ASSAY_JUDGE_SECRET_ARN;
});
afterAll(async () => {
  process.env = savedEnvironment;
  await fauxqs.close();
  await folder.remove();
});

/** What the deployed functions do after an upload: ingest on the S3 event, then the queues' consumers until a report. */
async function deployedFunctionsProcess(key: string, body?: Uint8Array): Promise<string> {
  const etag = createHash('md5').update(body ?? (await readFile(DATASET))).digest('hex');
  const [outcome] = await ingest(s3ObjectCreatedEvent(BUCKET, key, `"${etag}"`, 0), context);
  let reported = false;
  await runEventSources(
    [
      { queue: resources.cases, handler: judgeCases, batchSize: 10, concurrency: 2 },
      { queue: resources.deadLetters, handler: recordFailure, batchSize: 10, concurrency: 1 },
      {
        queue: resources.control,
        handler: async (event, lambdaContext) => {
          reported ||= (await reduce(event, lambdaContext)).some((result) => result.kind === 'reported');
        },
        batchSize: 1,
        concurrency: 1,
      },
    ],
    () => reported,
  );
  return outcome?.kind === 'started' ? outcome.runId : '';
}

describe('assay submit / status / report against a deployed stack (fauxqs)', () => {
  it('submits, follows and downloads a run', async () => {
    // Prepare
    const config = await folder.write('suite.yaml', 'judges: [chunk_relevance, document_recall]\n');

    // Act: submit, then the functions run
    const submitted = await runCli(['submit', DATASET, '--bucket', BUCKET, '--suite', 'faq', '--config', config, '--aws-endpoint', fauxqs.endpoint]);
    const runId = /run (r-[0-9a-f]{16})/.exec(submitted.stdout)?.[1] ?? '';
    const before = await runCli(['status', runId, '--bucket', BUCKET, '--aws-endpoint', fauxqs.endpoint]);
    const startedRun = await deployedFunctionsProcess('datasets/faq/search-assistant.jsonl');
    const after = await runCli(['status', runId, '--bucket', BUCKET, '--json', '--aws-endpoint', fauxqs.endpoint]);
    const out = join(folder.path, 'report');
    const downloaded = await runCli(['report', runId, '--bucket', BUCKET, '--out', out, '--aws-endpoint', fauxqs.endpoint]);

    // Assess
    expect(submitted.stdout).toMatch(/^submitted datasets\/faq\/search-assistant\.jsonl to assay-deployed; run r-[0-9a-f]{16}\n$/);
    expect(startedRun).toBe(runId);
    expect(before.stdout).toBe(`run ${runId}: not started yet (no manifest)\n`);
    expect(JSON.parse(after.stdout)).toEqual({
      run_id: runId,
      suite: 'faq',
      cases: 12,
      evaluated: 12,
      failed: 0,
      ingested: true,
      report: `reports/faq/${runId}/report.json`,
    });
    expect(downloaded.exitCode).toBe(0);
    expect((await readdir(out)).sort()).toEqual(['cases.jsonl', 'judgments.qrels', 'report.html', 'report.json', 'report.md']);
  });

  it('--wait follows a run until its report, and report explains a run without one', async () => {
    const waited = await runCli(['submit', DATASET, '--bucket', BUCKET, '--suite', 'faq', '--wait', '--aws-endpoint', fauxqs.endpoint]);
    expect(waited.stdout).toMatch(/report: reports\/faq\/r-[0-9a-f]{16}\/report\.json\n$/);
    const missing = await runCli(['report', 'r-0000000000000000', '--bucket', BUCKET, '--aws-endpoint', fauxqs.endpoint]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('No run r-0000000000000000 in bucket assay-deployed');
  });

  it('submits a TREC collection: its files, then the manifest whose event starts the run', async () => {
    // Prepare
    const fixture = (name: string) => join(import.meta.dirname, '..', 'fixtures', 'trec-eval', name);
    const config = await folder.write('trec.yaml', 'judges: []\n');

    // Act
    const submitted = await runCli(['submit', '--qrels', fixture('qrels.test'), '--run', fixture('results.test'), '--run', fixture('results.trunc'), '--bucket', BUCKET, '--suite', 'trec', '--config', config, '--aws-endpoint', fauxqs.endpoint]);
    const runId = /run (r-[0-9a-f]{16})/.exec(submitted.stdout)?.[1] ?? '';
    const store = bucketStore(BUCKET, fauxqs.endpoint);
    const manifestKey = 'datasets/trec/qrels.trec/collection.json';
    const ignored = await ingest(s3ObjectCreatedEvent(BUCKET, 'datasets/trec/qrels.trec/runs/1/results.test', '"x"', 0), context);
    const startedRun = await deployedFunctionsProcess(manifestKey, await store.get(manifestKey));
    const out = join(folder.path, 'trec-report');
    await runCli(['report', runId, '--bucket', BUCKET, '--out', out, '--aws-endpoint', fauxqs.endpoint]);

    // Assess
    expect(submitted.stdout).toBe(`submitted ${manifestKey} to ${BUCKET}; run ${runId}\n`);
    expect(ignored).toEqual([]);
    expect(startedRun).toBe(runId);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as { engines: Record<string, Record<string, number>> };
    expect(Object.keys(report.engines)).toEqual(['STANDARD', 'results.trunc:STANDARD']);
    expect(report.engines.STANDARD?.['retrieval/ground_truth/average_precision/average']).toBe(0.17854506039656948);
    expect(report.engines['results.trunc:STANDARD']?.['retrieval/ground_truth/average_precision/count']).toBe(2);
  });
});
