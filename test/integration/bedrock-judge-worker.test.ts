import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeWorkerDependencies, type JudgeWorkerDependencies } from '../../functions/judge-worker-dependencies.js';
import { configFileSchema } from '../../shared/config/index.js';
import type { RunConfig } from '../../shared/config/index.js';
import { startBedrockTestServer, type BedrockTestServer } from '../support/bedrock-test-server.js';
import { useFauxqsClients } from '../support/fauxqs.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startSecretsManagerTestServer, type SecretsManagerTestServer } from '../support/secrets-manager-test-server.js';

/**
 * The judge worker's wiring on Lambda when the stack runs its judges on
 * Amazon Bedrock (ASSAY_JUDGE_PROVIDER=bedrock): the judges sign with the
 * function's role, so no judge secret is read, even one that is configured
 * and empty; the calls reach Bedrock's Converse operation (a loopback stand-in
 * through the real SDK client) signed with the function's credentials, in
 * HTTP/1.1 to the http:// endpoint, or in HTTP/2 when the suite's config says
 * judge.bedrock.http_version "2".
 */
const BUCKET = 'assay-bedrock-judges';
const ACCESS_KEY = 'AKIDJUDGEWORKERROLE0';
const NOT_YET_SET = {
  error: 'ResourceNotFoundException',
  message: "Secrets Manager can't find the specified secret value for staging label: AWSCURRENT",
};

const aws = useFauxqsClients();
const savedEnvironment = { ...process.env };
let secrets: SecretsManagerTestServer;
let bedrock: BedrockTestServer;
let bedrockHttp2: BedrockTestServer;
let dependencies: JudgeWorkerDependencies;

beforeAll(async () => {
  secrets = await startSecretsManagerTestServer(NOT_YET_SET);
  bedrock = await startBedrockTestServer({ oracle: catalogOracle, accessKeyId: ACCESS_KEY });
  bedrockHttp2 = await startBedrockTestServer({ oracle: catalogOracle, accessKeyId: ACCESS_KEY, http: '2' });
  await aws.clients.s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  Object.assign(process.env, {
    ASSAY_BUCKET: BUCKET,
    ASSAY_CASES_QUEUE_URL: `${aws.fauxqs.endpoint}/000000000000/cases`,
    ASSAY_CONTROL_QUEUE_URL: `${aws.fauxqs.endpoint}/000000000000/control`,
    ASSAY_AWS_ENDPOINT: aws.fauxqs.endpoint,
    ASSAY_JUDGE_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:assay-judge-AbC123',
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint,
    ASSAY_JUDGE_PROVIDER: 'bedrock',
    ASSAY_JUDGE_MODEL: 'anthropic.claude-3-5-haiku-20241022-v1:0',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: ACCESS_KEY,
    AWS_SECRET_ACCESS_KEY: 'judge-worker-role-secret-key-0123456789ab',
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    POWERTOOLS_METRICS_DISABLED: 'true',
  });
  dependencies = await judgeWorkerDependencies();
});

afterAll(async () => {
  process.env = savedEnvironment;
  await bedrock?.close();
  await bedrockHttp2?.close();
  await secrets?.close();
});

describe('the judge worker with Bedrock judges', () => {
  it('judges through Converse with the function role, and never reads the judge secret', async () => {
    // Prepare: a suite config with no judge settings; only its endpoint points at the stand-in
    const config: RunConfig = {
      ...configFileSchema.parse({
        judges: ['relevance_to_query'],
        judge: {
          provider: 'bedrock',
          bedrock: { region: 'us-east-1', model_id: 'anthropic.claude-3-5-haiku-20241022-v1:0', endpoint: bedrock.endpoint },
        },
      }),
      strict: false,
    };

    // Act
    const judging = await dependencies.judgingFor(config, 'config-hash-bedrock');
    const [judge] = judging.judges;
    if (judging.backend.kind !== 'llm' || judge?.kind !== 'llm') throw new Error('Expected an LLM judge on Bedrock');
    const outcome = await judging.backend.service.judge(judge, {
      request: 'how do I rotate keys?',
      response: 'Rotate them in the console.',
    });

    // Assess
    expect(outcome).toMatchObject({ ok: true, verdict: { rating: 'yes' } });
    expect(bedrock.log.map((entry) => entry.modelId)).toEqual(['anthropic.claude-3-5-haiku-20241022-v1:0']);
    expect(bedrock.log[0]?.authorization).toContain(`Credential=${ACCESS_KEY}/`);
    expect(bedrock.log[0]?.httpVersion).toBe('1.1');
    expect(secrets.reads()).toBe(0);
  });

  it('speaks HTTP/2 to the endpoint when the suite config says http_version "2"', async () => {
    // Prepare
    const bedrockSettings = {
      region: 'us-east-1',
      model_id: 'anthropic.claude-3-5-haiku-20241022-v1:0',
      endpoint: bedrockHttp2.endpoint,
      http_version: '2',
    };
    const config: RunConfig = {
      ...configFileSchema.parse({ judges: ['relevance_to_query'], judge: { provider: 'bedrock', bedrock: bedrockSettings } }),
      strict: false,
    };

    // Act
    const judging = await dependencies.judgingFor(config, 'config-hash-bedrock-http2');
    const [judge] = judging.judges;
    if (judging.backend.kind !== 'llm' || judge?.kind !== 'llm') throw new Error('Expected an LLM judge on Bedrock');
    const outcome = await judging.backend.service.judge(judge, {
      request: 'how do I rotate keys?',
      response: 'Rotate them in the console.',
    });

    // Assess
    expect(outcome).toMatchObject({ ok: true, verdict: { rating: 'yes' } });
    expect(bedrockHttp2.log.map((entry) => entry.httpVersion)).toEqual(['2.0']);
  });
});
