import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as recordFailure } from '../../functions/failure-recorder.js';
import { handler as ingest } from '../../functions/ingest.js';
import { handler as judgeCases } from '../../functions/judge-worker.js';
import { judgeWorkerDependencies } from '../../functions/judge-worker-dependencies.js';
import { configFileSchema } from '../../shared/config/index.js';
import type { RunConfig } from '../../shared/config/index.js';
import { handler as reduce } from '../../functions/reducer.js';
import { NO_JUDGES } from '../../shared/worker/run-judge-summary.js';
import { runKeys } from '../../shared/run/run-identity.js';
import { createAwsClients, ensureAwsResources, type AwsClients, type AwsResources } from '../../shared/ports/aws-clients.js';
import { lambdaContext, runEventSources, s3ObjectCreatedEvent } from '../support/lambda-event-source.js';
import { S3Store } from '../../shared/ports/s3-store.js';
import { caseFailureSchema, manifestSchema } from '../../shared/schema/run-records.js';
import { reportSchema, type Report } from '../../shared/schema/report.js';
import { captureLogs, type LogEntry } from '../support/captured-logs.js';
import { closedPort } from '../support/closed-port.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer } from '../support/openai-test-server.js';
import { runCli } from '../support/run-cli.js';
import { startFauxqs, type Fauxqs } from '../support/fauxqs.js';
import { startSecretsManagerTestServer, type SecretsManagerTestServer } from '../support/secrets-manager-test-server.js';
import { sqsRecordOf } from '../support/sqs-record.js';

/**
 * What a user of the deployed stack sees when the judge worker fails before
 * it judges: the reason in the report's failed cases and in the worker's
 * logs, not "the worker recorded no error". The Lambda entry points run as
 * the stack configures them, over S3 and SQS on fauxqs and a Secrets Manager
 * stand-in in the state right after a deployment: the judge secret has no value.
 */
const BUCKET = 'assay-deployed';
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:AssayJudgeSecret-AbC123';
const NO_VALUE_YET = {
  error: 'ResourceNotFoundException',
  message: "Secrets Manager can't find the specified secret value for staging label: AWSCURRENT",
};
const DATASET = join(import.meta.dirname, '..', '..', 'examples', 'datasets', 'support.jsonl');
const EMPTY_SECRET_REASON =
  `Could not read the judge secret ${SECRET_ARN}: it holds no value: put the judge API key in it ` +
  `(aws secretsmanager put-secret-value --secret-id ${SECRET_ARN} --secret-string "$OPENAI_API_KEY")`;

let fauxqs: Fauxqs;
let secrets: SecretsManagerTestServer;
let clients: AwsClients;
let resources: AwsResources;
let store: S3Store;
/** The judge server's port: nothing listens there, and no case gets as far as calling it. */
let judgePort: number;
const savedEnvironment = { ...process.env };

beforeAll(async () => {
  judgePort = await closedPort();
  fauxqs = await startFauxqs();
  secrets = await startSecretsManagerTestServer(NO_VALUE_YET);
  clients = createAwsClients({ endpoint: fauxqs.endpoint });
  // One receive a case: a failed case goes to the dead-letter queue at once.
  resources = await ensureAwsResources(clients, {
    bucket: BUCKET,
    casesQueue: 'cases',
    deadLetterQueue: 'cases-dlq',
    controlQueue: 'control',
    maxReceiveCount: 1,
    visibilityTimeoutSeconds: 1,
  });
  store = new S3Store(clients.s3, BUCKET);
  Object.assign(process.env, {
    ASSAY_BUCKET: BUCKET,
    ASSAY_CASES_QUEUE_URL: resources.cases.url,
    ASSAY_CONTROL_QUEUE_URL: resources.control.url,
    ASSAY_AWS_ENDPOINT: fauxqs.endpoint,
    ASSAY_JUDGE_SECRET_ARN: SECRET_ARN,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    // Never called: no case gets as far as a judge.
    OPENAI_BASE_URL: `http://127.0.0.1:${judgePort}/v1`,
    ASSAY_JUDGE_MODEL: 'judge-model',
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    POWERTOOLS_METRICS_DISABLED: 'true',
  });
});

afterAll(async () => {
  process.env = savedEnvironment;
  clients.s3.destroy();
  clients.sqs.destroy();
  await secrets.close();
  await fauxqs.close();
});

/** An upload to datasets/<suite>/ and everything the stack's event sources do after it, until the reducer writes the report. */
async function runSuite(suite: string): Promise<Report> {
  const key = `datasets/${suite}/support.jsonl`;
  const { etag } = await store.upload(key, DATASET);
  const [started] = await ingest(s3ObjectCreatedEvent(BUCKET, key, `"${etag}"`, 0), lambdaContext('ingest'));
  if (started?.kind !== 'started') throw new Error(`Expected ingest to start a run, got ${JSON.stringify(started)}`);
  let reported: Report | undefined;
  await runEventSources(
    [
      { queue: resources.cases, handler: judgeCases, batchSize: 10, concurrency: 1 },
      { queue: resources.deadLetters, handler: recordFailure, batchSize: 10, concurrency: 1 },
      {
        queue: resources.control,
        handler: async (event, context) => {
          for (const outcome of await reduce(event, context))
            if (outcome.kind === 'checked' && outcome.action.kind === 'reported' && outcome.action.runId === started.runId)
              reported = outcome.action.report;
        },
        batchSize: 1,
        concurrency: 1,
      },
    ],
    () => reported !== undefined,
  );
  return reportSchema.parse(reported);
}

const errorsOf = (entries: LogEntry[]) => entries.filter((entry) => entry.level === 'ERROR');

describe('the deployed judge worker, before it judges', () => {
  it('fails every case of an LLM-judged run while the judge secret has no value, saying why in the report and the logs', async () => {
    // Prepare: a suite whose config asks an LLM judge
    await store.put('config/judged.yaml', 'judges: [chunk_relevance, document_recall]\nrun:\n  check_delay_seconds: 0\n');
    const logs = captureLogs();

    // Act
    let report: Report;
    try {
      report = await runSuite('judged');
    } finally {
      logs.restore();
    }

    // Assess: the report's failures and the worker's error lines carry the reason
    expect(report.cases).toMatchObject({ evaluated: 0, failed: report.cases.total });
    expect(report.failed_cases.map((failure) => failure.error)).toEqual(report.failed_cases.map(() => EMPTY_SECRET_REASON));
    expect(report.judge).toBe(`LLM judge judge-model at 127.0.0.1:${judgePort}, temperature 0, cached`);
    const failures = errorsOf(logs.entries()).filter((entry) => entry.message === 'case failed');
    expect(failures).toHaveLength(report.cases.total);
    expect(failures.map((entry) => entry.error)).toEqual(failures.map(() => EMPTY_SECRET_REASON));
  });

  it('runs a judge-less suite without reading the judge secret, and its judge line says so', async () => {
    // Prepare
    await store.put('config/unjudged.yaml', 'judges: []\nrun:\n  check_delay_seconds: 0\n');
    const readsBefore = secrets.reads();

    // Act
    const report = await runSuite('unjudged');

    // Assess
    expect(report.cases).toMatchObject({ evaluated: report.cases.total, failed: 0 });
    expect(report.judge).toBe(NO_JUDGES);
    expect(secrets.reads()).toBe(readsBefore);
  });

  it('says the same of a judge secret that holds only whitespace', async () => {
    // Prepare
    secrets.answer({ value: ' \n ' });
    const config: RunConfig = { ...configFileSchema.parse({ judges: ['chunk_relevance'] }), strict: false };

    // Act
    const judging = (await judgeWorkerDependencies()).judgingFor(config, 'config-hash-whitespace');

    // Assess
    await expect(judging).rejects.toThrow(EMPTY_SECRET_REASON);
  });

  it('records a case whose run has no manifest with that reason', async () => {
    // Prepare: a case message of a run this bucket never saw, on its last receive
    const body = JSON.stringify({
      kind: 'case',
      run_id: 'r-00000000000000ff',
      case_id: 'q01',
      case_key: 'runs/r-00000000000000ff/cases/q01.json',
    });
    const record = sqsRecordOf(body);
    const logs = captureLogs();

    // Act
    let response: unknown;
    try {
      response = await judgeCases(
        { Records: [record, sqsRecordOf(JSON.stringify({ kind: 'case' }), 'm-2')] },
        lambdaContext('judge-worker'),
      ).catch((error: unknown) => error);
      await recordFailure({ Records: [record] });
    } finally {
      logs.restore();
    }

    // Assess: the whole batch failed, and each failure says why, in its record and in the logs
    expect(response).toMatchObject({ name: 'FullBatchFailureError' });
    const failure = caseFailureSchema.parse(
      JSON.parse(new TextDecoder().decode(await store.get(runKeys.failure('r-00000000000000ff', 'q01')))),
    );
    expect(failure.error).toBe('Run r-00000000000000ff has no manifest (runs/r-00000000000000ff/manifest.json)');
    expect(
      errorsOf(logs.entries())
        .map((entry) => [entry.message, entry.error])
        .sort(),
    ).toEqual([
      ['case failed', failure.error],
      ['not a case message', 'not a case message: field "run_id": is missing (and 1 more problem)'],
    ]);
  });
});

describe('assay submit --wait, on a deployed run whose cases failed', () => {
  const submit = (suite: string, ...extra: string[]) =>
    runCli(['submit', DATASET, '--bucket', BUCKET, '--suite', suite, '--wait', '--aws-endpoint', fauxqs.endpoint, ...extra]);
  const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';

  it('exits 1 for a run that evaluated nothing, whatever --max-failed', async () => {
    // Prepare: the run of suite judged above, whose every case failed (the judge secret had no value)
    const readJson = async (key: string) => JSON.parse(new TextDecoder().decode(await store.get(key))) as unknown;
    const { run_id: runId } = (await readJson('reports/judged/latest.json')) as { run_id: string };
    const report = reportSchema.parse(await readJson(runKeys.report('judged', runId, 'report.json')));

    // Act: the same file submitted again is the same run, already reported
    const gated = await submit('judged');
    const accepting = await submit('judged', '--max-failed', '100%');

    // Assess
    expect(report.cases).toMatchObject({ evaluated: 0, failed: 4 });
    expect(gated.stdout).toBe(
      `submitted datasets/judged/support.jsonl to ${BUCKET}; run ${runId}\nreport: reports/judged/${runId}/report.json\n`,
    );
    expect(lastLine(gated.stderr)).toMatch(
      /^assay submit: no case could be evaluated \(4 failed, 0 missing\); the first failure, [^:]+: Could not read the judge secret /,
    );
    expect([gated.exitCode, accepting.exitCode]).toEqual([1, 1]);
    expect(lastLine(accepting.stderr)).toBe(lastLine(gated.stderr));
  });

  it('exits 1 when a case failed, naming it and why, unless --max-failed accepts it', async () => {
    // Prepare: the judge secret holds a key; the chunk judge's server fails every call about the CSV export passage
    const judge = await startOpenAiTestServer({
      oracle: (request, callIndex) => {
        if (request.messages.some((message) => message.content?.includes('Export > CSV') === true))
          throw new Error('the CSV passage is poisoned');
        return catalogOracle(request, callIndex);
      },
    });
    secrets.answer({ value: 'sk-deployed-gate-Qw3Er5Ty7' });
    await store.put(
      'config/partial.yaml',
      `judges: [chunk_relevance]\njudge_settings:\n  chunk_relevance: {base_url: "${judge.baseUrl}"}\nrun:\n  check_delay_seconds: 0\n`,
    );
    let report: Report;
    try {
      report = await runSuite('partial');
    } finally {
      await judge.close();
    }

    // Act
    const gated = await submit('partial');
    const byCount = await submit('partial', '--max-failed', '1');
    const byShare = await submit('partial', '--max-failed', '25%');

    // Assess
    expect(report.cases).toEqual({ total: 4, evaluated: 3, failed: 1, missing: 0, judge_failed: 0 });
    expect(lastLine(gated.stderr)).toMatch(
      /^assay submit: 1 of 4 cases failed \(more than --max-failed 0\); the first: [^:]+: .*the CSV passage is poisoned.*; the report lists them all \(report\.json failed_cases\)$/,
    );
    expect([gated.exitCode, byCount.exitCode, byShare.exitCode]).toEqual([1, 0, 0]);
  });
});

describe('the judge line of a deployed run', () => {
  it('is in the manifest ingest writes, as the worker will judge', async () => {
    const latest = JSON.parse(new TextDecoder().decode(await store.get('reports/judged/latest.json'))) as { run_id: string };
    const manifest = manifestSchema.parse(JSON.parse(new TextDecoder().decode(await store.get(runKeys.manifest(latest.run_id)))));

    expect(manifest.judge).toBe(`LLM judge judge-model at 127.0.0.1:${judgePort}, temperature 0, cached`);
  });
});
