import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { judgeWorkerDependencies, type JudgeWorkerDependencies } from '../../functions/judge-worker-dependencies.js';
import { configFileSchema } from '../../shared/config/index.js';
import type { Judging } from '../../shared/worker/evaluate-case.js';
import type { RunConfig } from '../../shared/config/index.js';
import { useFauxqsClients } from '../support/fauxqs.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { startSecretsManagerTestServer, type SecretsManagerTestServer } from '../support/secrets-manager-test-server.js';

/**
 * The judge worker's wiring on Lambda, reading the judge key from Secrets
 * Manager (a local stand-in, through the real SDK client) for a warm
 * container: a read that failed must not fail every later case, and a
 * rotated key must reach the judge server once the held one is old enough.
 */
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:assay-judge-AbC123';
const BUCKET = 'assay-judge-key';
const NOT_YET_SET = {
  error: 'ResourceNotFoundException',
  message: "Secrets Manager can't find the specified secret value for staging label: AWSCURRENT",
};
const CONFIG: RunConfig = { ...configFileSchema.parse({ judges: ['relevance_to_query'], judge: { max_retries: 0 } }), strict: false };
const CONFIG_HASH = 'config-hash-1';
/** Just past the five minutes a key is held. */
const PAST_MAX_AGE_MS = 301_000;

const aws = useFauxqsClients();
const savedEnvironment = { ...process.env };
let secrets: SecretsManagerTestServer;
let judgeServer: OpenAiTestServer;
let dependencies: JudgeWorkerDependencies;

beforeAll(async () => {
  secrets = await startSecretsManagerTestServer(NOT_YET_SET);
  judgeServer = await startOpenAiTestServer({ oracle: catalogOracle });
  await aws.clients.s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  Object.assign(process.env, {
    ASSAY_BUCKET: BUCKET,
    ASSAY_CASES_QUEUE_URL: `${aws.fauxqs.endpoint}/000000000000/cases`,
    ASSAY_CONTROL_QUEUE_URL: `${aws.fauxqs.endpoint}/000000000000/control`,
    ASSAY_AWS_ENDPOINT: aws.fauxqs.endpoint,
    ASSAY_JUDGE_SECRET_ARN: SECRET_ARN,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    OPENAI_BASE_URL: judgeServer.baseUrl,
    ASSAY_JUDGE_MODEL: 'judge-model',
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    POWERTOOLS_METRICS_DISABLED: 'true',
  });
  dependencies = await judgeWorkerDependencies();
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  process.env = savedEnvironment;
  await judgeServer?.close();
  await secrets?.close();
});

let question = 0;

/** One judge call through the judging's backend, on a question not asked before (so not answered from the cache); returns the Authorization header the judge server got. */
async function authorizationOfOneCall(judging: Judging): Promise<string | undefined> {
  if (judging.backend.kind !== 'llm') throw new Error(`Expected an LLM judge backend, got ${judging.backend.kind}`);
  const [judge] = judging.judges;
  if (judge?.kind !== 'llm') throw new Error('Expected relevance_to_query, an LLM judge');
  question += 1;
  const before = judgeServer.log.length;
  const outcome = await judging.backend.service.judge(judge, {
    request: `how do I rotate keys, take ${question}?`,
    response: 'Rotate them in the console.',
  });
  expect(outcome.ok).toBe(true);
  expect(judgeServer.log).toHaveLength(before + 1);
  return judgeServer.log.at(-1)?.authorization;
}

describe('the judge key of a warm judge worker', () => {
  it('is read again after a failed read, so the next case gets it', async () => {
    // Act: the secret has no value yet; then it gets one
    const failed = dependencies.judgingFor(CONFIG, CONFIG_HASH);
    await expect(failed).rejects.toThrow(`Could not read the judge secret ${SECRET_ARN}`);
    secrets.answer({ value: 'sk-first' });
    const judging = await dependencies.judgingFor(CONFIG, CONFIG_HASH);

    // Assess
    expect(await authorizationOfOneCall(judging)).toBe('Bearer sk-first');
  });

  it('reaches the judge server rotated once the held key is older than five minutes, and not before', async () => {
    // Prepare: the key of the previous test is held; the secret is rotated
    vi.useFakeTimers({ toFake: ['Date'] });
    const readsBefore = secrets.reads();
    secrets.answer({ value: 'sk-second' });

    // Act, Assess: within the five minutes the held key is used without a read
    const early = await dependencies.judgingFor(CONFIG, CONFIG_HASH);
    expect(await authorizationOfOneCall(early)).toBe('Bearer sk-first');
    expect(secrets.reads()).toBe(readsBefore);

    // Act, Assess: past them, one read, and the judging is rebuilt with the new key
    vi.setSystemTime(Date.now() + PAST_MAX_AGE_MS);
    const late = await Promise.all([dependencies.judgingFor(CONFIG, CONFIG_HASH), dependencies.judgingFor(CONFIG, CONFIG_HASH)]);
    expect(await authorizationOfOneCall(late[0])).toBe('Bearer sk-second');
    expect(late[1]).toBe(late[0]);
    expect(secrets.reads()).toBe(readsBefore + 1);
  });

  it('keeps the same judging, with its in-memory cache, while the key is unchanged', async () => {
    const first = await dependencies.judgingFor(CONFIG, CONFIG_HASH);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + PAST_MAX_AGE_MS);
    const afterRefresh = await dependencies.judgingFor(CONFIG, CONFIG_HASH);

    expect(afterRefresh).toBe(first);
  });
});

describe('the judges of a deployed run', () => {
  it('are the default set of `assay run` when the suite config lists none', async () => {
    // Prepare: a suite config without a judges list, as ingest stores it in the manifest
    const config: RunConfig = { ...configFileSchema.parse({}), strict: false };

    // Act
    const judging = await dependencies.judgingFor(config, 'config-hash-without-judges');

    // Assess
    expect(judging.backend.kind).toBe('llm');
    const databricksDefaults = [
      'chunk_relevance',
      'context_sufficiency',
      'correctness',
      'relevance_to_query',
      'groundedness',
      'safety',
      'document_recall',
    ];
    expect(judging.judges.map((judge) => judge.id).sort()).toEqual(databricksDefaults.sort());
  });
});
