import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  judgeWorkerDependencies,
  RETIRED_ENGINES_CLOSE_AFTER_MS,
  type JudgeWorkerDependencies,
} from '../../functions/judge-worker-dependencies.js';
import { configFileSchema } from '../../shared/config/index.js';
import type { Judging } from '../../shared/worker/evaluate-case.js';
import type { RunConfig } from '../../shared/config/index.js';
import { startRecordingServer, type RecordingServer } from '../support/recording-server.js';
import { startSecretsManagerTestServer, type SecretsManagerTestServer } from '../support/secrets-manager-test-server.js';

/**
 * The judge worker's engine secret on Lambda: read from Secrets Manager (a
 * local stand-in, through the real SDK client) only for a run with live
 * engines, laid over the function's environment for the engines, kept for
 * five minutes in a warm container, read again after a failed read, and a
 * rotated value rebuilds the run's engines.
 */
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:assay-engines-AbC123';
const NOT_YET_SET = {
  error: 'ResourceNotFoundException',
  message: "Secrets Manager can't find the specified secret value for staging label: AWSCURRENT",
};
/** Just past the five minutes a secret is held. */
const PAST_MAX_AGE_MS = 301_000;

const runConfig = (input: Record<string, unknown>): RunConfig => ({
  ...configFileSchema.parse({ judges: ['relevance_to_query'], ...input }),
  strict: false,
});
/** The tenant header comes from the function's environment, the token from the engine secret. */
const withEngines = (): RunConfig =>
  runConfig({
    engines: [
      {
        name: 'search',
        http: {
          url: `${search.url}/search`,
          headers: { Authorization: 'Bearer {{env.SEARCH_TOKEN}}', 'X-Tenant': '{{env.SEARCH_TENANT}}' },
          results: 'hits',
        },
      },
    ],
  });
const WITHOUT_ENGINES = runConfig({});
const NEEDS_MISSING_VARIABLE = runConfig({
  engines: [{ name: 'other', http: { url: '{{env.OTHER_SEARCH_URL}}/search', results: 'hits' } }],
});

const savedEnvironment = { ...process.env };
let secrets: SecretsManagerTestServer;
let search: RecordingServer;
let dependencies: JudgeWorkerDependencies;

beforeAll(async () => {
  secrets = await startSecretsManagerTestServer(NOT_YET_SET);
  search = await startRecordingServer(() => ({ body: { hits: [{ doc_uri: 'doc-1', content: 'Rotate keys in the console.', score: 1 }] } }));
  Object.assign(process.env, {
    ASSAY_BUCKET: 'assay-engine-secret',
    // Nothing here talks to S3 or SQS; a closed loopback port keeps a mistake off the network.
    ASSAY_CASES_QUEUE_URL: 'http://127.0.0.1:9/000000000000/cases',
    ASSAY_CONTROL_QUEUE_URL: 'http://127.0.0.1:9/000000000000/control',
    ASSAY_AWS_ENDPOINT: 'http://127.0.0.1:9',
    ASSAY_ENGINE_SECRET_ARN: SECRET_ARN,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    SEARCH_TENANT: 'support',
    SEARCH_TOKEN: 'from-the-function-environment',
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    POWERTOOLS_METRICS_DISABLED: 'true',
  });
  delete process.env.ASSAY_JUDGE_SECRET_ARN;
  dependencies = await judgeWorkerDependencies();
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  process.env = savedEnvironment;
  await search?.close();
  await secrets?.close();
});

/** Asks the judging's one engine a query; returns the Authorization header the search service got (and checks the tenant). */
async function authorizationOfOneSearch(judging: Judging): Promise<string | undefined> {
  const [engine] = judging.engines ?? [];
  if (engine === undefined) throw new Error('Expected the run to have a live engine');
  const before = search.requests.length;
  const result = await engine.call({ query: 'how do I rotate keys?', request_id: 'q1' }, new AbortController().signal);
  expect(result.ok, JSON.stringify(result)).toBe(true);
  expect(search.requests).toHaveLength(before + 1);
  expect(search.requests.at(-1)?.headers['x-tenant']).toBe('support');
  return search.requests.at(-1)?.headers.authorization;
}

describe('the engine secret of a warm judge worker', () => {
  it('is not read for a run without live engines', async () => {
    const judging = await dependencies.judgingFor(WITHOUT_ENGINES, 'no-engines');

    expect(judging.engines).toEqual([]);
    expect(secrets.reads()).toBe(0);
  });

  it('fails the case naming the secret until it has a value; then the engines get its variables over the environment', async () => {
    // Act: the secret has no value yet; then it gets one
    await expect(dependencies.judgingFor(withEngines(), 'engines')).rejects.toThrow(`Could not read the engine secret ${SECRET_ARN}`);
    secrets.answer({ value: '{"SEARCH_TOKEN": "tok-first"}' });
    const judging = await dependencies.judgingFor(withEngines(), 'engines');

    // Assess: the tenant came from the function's environment, the token from the secret, which wins over it
    expect(await authorizationOfOneSearch(judging)).toBe('Bearer tok-first');
    expect(secrets.reads()).toBe(2);
  });

  it('names a variable the engines lack with where it goes on AWS', async () => {
    await expect(dependencies.judgingFor(NEEDS_MISSING_VARIABLE, 'missing')).rejects.toThrow(
      `the environment variable OTHER_SEARCH_URL is not set (fix: export OTHER_SEARCH_URL before running) (on AWS, add them to the engine secret ${SECRET_ARN})`,
    );
  });

  it('rebuilds the engines with a rotated secret once the held one is older than five minutes, and closes the old ones later', async () => {
    // Prepare: the value of the previous test is held; the secret is rotated
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout'] });
    const readsBefore = secrets.reads();
    secrets.answer({ value: '{"SEARCH_TOKEN": "tok-second"}' });
    const early = await dependencies.judgingFor(withEngines(), 'engines');
    const closeOld = vi.spyOn(early.engines?.[0] ?? { close: async () => {} }, 'close');

    // Act, Assess: within the five minutes the held value is used without a read
    expect(await authorizationOfOneSearch(early)).toBe('Bearer tok-first');
    expect(secrets.reads()).toBe(readsBefore);

    // Act, Assess: past them, one read, and the judging is rebuilt with engines that send the new token
    vi.setSystemTime(Date.now() + PAST_MAX_AGE_MS);
    const late = await Promise.all([dependencies.judgingFor(withEngines(), 'engines'), dependencies.judgingFor(withEngines(), 'engines')]);
    expect(late[1]).toBe(late[0]);
    expect(late[0]).not.toBe(early);
    expect(secrets.reads()).toBe(readsBefore + 1);
    expect(await authorizationOfOneSearch(late[0])).toBe('Bearer tok-second');

    // Act, Assess: the replaced engines stay open for cases still using them, then close
    expect(closeOld).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(RETIRED_ENGINES_CLOSE_AFTER_MS);
    expect(closeOld).toHaveBeenCalledOnce();
  });

  it('reads a secret that does not parse again on the next case, and never puts its text in the error', async () => {
    // Prepare: the held value is old (read on the previous test's clock, one step ahead); the secret now holds text that is no JSON object
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2 * PAST_MAX_AGE_MS);
    secrets.answer({ value: 'SEARCH_TOKEN=tok-malformed' });

    // Act
    const failed = dependencies.judgingFor(withEngines(), 'engines');
    await expect(failed).rejects.toThrow(`Could not read the engine secret ${SECRET_ARN}: it is not JSON`);
    await expect(dependencies.judgingFor(withEngines(), 'engines')).rejects.not.toThrow(/tok-malformed/);
    secrets.answer({ value: '{"SEARCH_TOKEN": "tok-third"}' });
    const corrected = await dependencies.judgingFor(withEngines(), 'engines');

    // Assess
    expect(await authorizationOfOneSearch(corrected)).toBe('Bearer tok-third');
  });
});
