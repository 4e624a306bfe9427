import type { Context } from 'aws-lambda';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as recordFailure } from '../../functions/failure-recorder.js';
import { handler as ingest } from '../../functions/ingest.js';
import { handler as judgeCases } from '../../functions/judge-worker.js';
import { handler as reduce } from '../../functions/reducer.js';
import { parseLambdaEnvironment } from '../../functions/lambda-environment.js';
import { createAwsClients, ensureAwsResources } from '../../shared/ports/aws-clients.js';
import { runEventSources, s3ObjectCreatedEvent } from '../support/lambda-event-source.js';
import { S3Store } from '../../shared/ports/s3-store.js';
import { reportSchema } from '../../shared/schema/report.js';
import { startFauxqs, type Fauxqs } from '../support/fauxqs.js';

/**
 * The Lambda entry points themselves, configured only by their environment as
 * the stack configures them, against S3 and SQS on fauxqs. fauxqs delivers no
 * S3 notifications, so the test hands ingest the event S3 would send.
 */
const DATASET = join(import.meta.dirname, '..', '..', 'examples', 'datasets', 'search-assistant.jsonl');
let fauxqs: Fauxqs;
const savedEnvironment = { ...process.env };

beforeAll(async () => {
  fauxqs = await startFauxqs();
});
afterAll(async () => {
  process.env = savedEnvironment;
  await fauxqs.close();
});

const context = { getRemainingTimeInMillis: () => 900_000 } as Context;

describe('the Lambda handlers, wired from their environment', () => {
  it('refuses to start without its environment, naming the missing variables', () => {
    expect(() => parseLambdaEnvironment({})).toThrow(/ASSAY_BUCKET.*ASSAY_CASES_QUEUE_URL.*ASSAY_CONTROL_QUEUE_URL/);
  });

  it('refuses a judge base URL with a user and password, without repeating the password', () => {
    // Prepare
    const queues = {
      ASSAY_BUCKET: 'b',
      ASSAY_CASES_QUEUE_URL: 'http://127.0.0.1:1/q/cases',
      ASSAY_CONTROL_QUEUE_URL: 'http://127.0.0.1:1/q/control',
    };

    // Act
    const parse = () =>
      parseLambdaEnvironment({ ...queues, OPENAI_BASE_URL: 'https://gateway-user:Lm42-lambda-secret@gateway.example/v1' });

    // Assess
    expect(parse).toThrow(
      /^The function's environment is incomplete \(OPENAI_BASE_URL: holds a user name or password \(user:password@ before the host\)\); /,
    );
    expect(parse).not.toThrow(/Lm42-lambda-secret/);
  });

  it('run a suite from an upload to its report, with the suite config from the bucket', async () => {
    // Prepare: the resources the stack would create, and the environment it would set
    const clients = createAwsClients({ endpoint: fauxqs.endpoint });
    const resources = await ensureAwsResources(clients, {
      bucket: 'assay-lambda',
      casesQueue: 'cases',
      deadLetterQueue: 'cases-dlq',
      controlQueue: 'control',
      maxReceiveCount: 3,
      visibilityTimeoutSeconds: 2,
    });
    const queueUrl = async (name: string) =>
      (await clients.sqs.send(new (await import('@aws-sdk/client-sqs')).GetQueueUrlCommand({ QueueName: name }))).QueueUrl as string;
    Object.assign(process.env, {
      ASSAY_BUCKET: 'assay-lambda',
      ASSAY_CASES_QUEUE_URL: await queueUrl('cases'),
      ASSAY_CONTROL_QUEUE_URL: await queueUrl('control'),
      ASSAY_AWS_ENDPOINT: fauxqs.endpoint,
      POWERTOOLS_LOG_LEVEL: 'ERROR',
      POWERTOOLS_METRICS_DISABLED: 'true',
    });
    delete process.env.OPENAI_API_KEY;
    const store = new S3Store(clients.s3, 'assay-lambda');
    await store.put('config/support.yaml', 'judges: [chunk_relevance, document_recall]\nrun:\n  cutoffs: [3]\n');
    const { etag } = await store.upload('datasets/support/search-assistant.jsonl', DATASET);

    // Act
    const [started] = await ingest(
      s3ObjectCreatedEvent('assay-lambda', 'datasets/support/search-assistant.jsonl', `"${etag}"`, 0),
      context,
    );
    let done = false;
    await runEventSources(
      [
        { queue: resources.cases, handler: judgeCases, batchSize: 10, concurrency: 2 },
        { queue: resources.deadLetters, handler: recordFailure, batchSize: 10, concurrency: 1 },
        {
          queue: resources.control,
          handler: async (event, lambdaContext) => {
            const outcomes = await reduce(event, lambdaContext);
            done ||= outcomes.some((outcome) => outcome.kind === 'checked' && outcome.action.kind === 'reported');
          },
          batchSize: 1,
          concurrency: 1,
        },
      ],
      () => done,
    );

    // Assess
    expect(started).toMatchObject({ kind: 'started', cases: 12 });
    const latest = JSON.parse(new TextDecoder().decode(await store.get('reports/support/latest.json'))) as { report: string };
    const report = reportSchema.parse(JSON.parse(new TextDecoder().decode(await store.get(latest.report))));
    expect(report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    expect(report.judge).toMatch(/^lexical judge/);
    expect(Object.keys(report.engines.hybrid ?? {})).toContain('retrieval/ground_truth/ndcg@3/average');
    expect(Object.keys(report.engines.hybrid ?? {})).toContain('retrieval/lexical/chunk_relevance/precision/average');
  });
});
