import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startBedrockTestServer } from '../support/bedrock-test-server.js';
import { packagesLoaded, runBuiltCli, type BuiltCliOutcome } from '../support/built-cli.js';
import { startFauxqs } from '../support/fauxqs.js';
import { fixtureJson } from '../support/fixture-json.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { REPOSITORY_ROOT } from '../support/markdown.js';
import { startOpenAiTestServer } from '../support/openai-test-server.js';
import { startRecordingServer } from '../support/recording-server.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { freshPglite } from '../support/pglite.js';

/**
 * Each package the built CLI loads only when a command reaches it (the YAML
 * parser, the openai SDK, the AWS SDK's clients, the Postgres and OpenSearch
 * clients) loaded through the build at least once, by the command that needs
 * it, against a real server on loopback. A bundled CommonJS package can lose
 * its named exports in the build while the source works (a YAML config once
 * failed that way), and only a process of the built CLI shows it; the module
 * resolutions it records show the package really loaded.
 */
const DATASET = join(REPOSITORY_ROOT, 'examples', 'datasets', 'search-assistant.jsonl');
const AWS_KEYS = { AWS_ACCESS_KEY_ID: 'AKIDBUNDLEDPACKAGES', AWS_SECRET_ACCESS_KEY: 'bundled-packages-secret-access-key' };

let folder: TempFolder;
beforeAll(async () => {
  folder = await createTempFolder();
});
afterAll(() => folder.remove());

async function assay(args: readonly string[], env: Record<string, string> = {}): Promise<BuiltCliOutcome> {
  return runBuiltCli(args, { env, recordResolutions: join(folder.path, `resolved-${Date.now()}.tsv`) });
}
const runArgs = (name: string, ...more: string[]) => [
  'run',
  DATASET,
  '--store',
  join(folder.path, name, 'store'),
  '--out',
  join(folder.path, name, 'out'),
  ...more,
];
const configFile = (name: string, config: object) => folder.write(name, JSON.stringify(config));

interface Scenario {
  readonly name: string;
  readonly packages: readonly string[];
  readonly run: () => Promise<BuiltCliOutcome>;
  /** What the command printed that shows it used the package for real. */
  readonly prints: RegExp;
}

const SCENARIOS: readonly Scenario[] = [
  {
    name: 'a YAML config',
    packages: ['yaml'],
    run: () => assay(['judges', '--config', join(REPOSITORY_ROOT, 'examples', 'configs', 'dag-judge.yaml')]),
    prints: /^summary_structure +dag /m,
  },
  {
    name: 'an LLM judge on an OpenAI-compatible server',
    packages: ['openai'],
    run: async () => {
      const server = await startOpenAiTestServer({ oracle: catalogOracle });
      onTestFinished(() => server.close());
      return assay(runArgs('openai', '--judges', 'chunk_relevance'), {
        OPENAI_API_KEY: 'sk-bundled',
        OPENAI_BASE_URL: server.baseUrl,
        ASSAY_JUDGE_MODEL: 'judge-model',
      });
    },
    prints: /^LLM judge judge-model at 127\.0\.0\.1:\d+/m,
  },
  {
    name: 'a Bedrock judge',
    packages: ['@aws-sdk/client-bedrock-runtime'],
    run: async () => {
      const server = await startBedrockTestServer({ oracle: catalogOracle, accessKeyId: AWS_KEYS.AWS_ACCESS_KEY_ID });
      onTestFinished(() => server.close());
      const config = await configFile('bedrock.json', {
        judge: {
          provider: 'bedrock',
          bedrock: { region: 'us-east-1', model_id: 'anthropic.claude-3-5-haiku-20241022-v1:0', endpoint: server.endpoint },
        },
      });
      return assay(runArgs('bedrock', '--judges', 'chunk_relevance', '--config', config), AWS_KEYS);
    },
    prints: /on Amazon Bedrock \(us-east-1, endpoint 127\.0\.0\.1:\d+\)/,
  },
  {
    name: 'a run on an S3 and SQS endpoint',
    packages: ['@aws-sdk/client-s3', '@aws-sdk/client-sqs'],
    run: async () => {
      const fauxqs = await startFauxqs();
      onTestFinished(() => fauxqs.close());
      return assay(runArgs('aws', '--judges', 'document_recall', '--aws-endpoint', fauxqs.endpoint));
    },
    prints: /^retrieval\/ground_truth\/ndcg@10\/average +0\.8330 \(n=9\) +1\.0000 \(n=9\)$/m,
  },
  {
    name: 'OpenSearch, Lambda and Bedrock Knowledge Base engines',
    packages: ['@opensearch-project/opensearch', '@aws-sdk/client-lambda', '@aws-sdk/client-bedrock-agent-runtime'],
    run: async () => {
      const cluster = await startRecordingServer(() => ({ body: fixtureJson('engines/opensearch-search.json') }));
      const lambda = await startRecordingServer(() => ({ body: fixtureJson('engines/lambda-search-answer.json') }));
      const knowledgeBase = await startRecordingServer(() => ({ body: fixtureJson('engines/bedrock-retrieve.json') }));
      onTestFinished(() => Promise.all([cluster.close(), lambda.close(), knowledgeBase.close()]).then(() => undefined));
      const config = await configFile('managed-engines.json', {
        engines: [
          {
            name: 'os',
            opensearch: {
              url: cluster.url,
              index: 'docs-v2',
              query: { query: { match: { text: '{{query}}' } } },
              id_field: 'doc_id',
              content_field: 'text',
            },
          },
          {
            name: 'fn',
            lambda: {
              function_name: 'search-docs',
              region: 'us-east-1',
              endpoint: lambda.url,
              results: 'results[].{doc_uri: id, content: passage, score: relevance}',
            },
          },
          { name: 'kb', bedrock_kb: { knowledge_base_id: 'KB12345678', region: 'us-east-1', endpoint: knowledgeBase.url } },
        ],
      });
      return assay(['engines', '--config', config, '--query', 'rotate access keys'], AWS_KEYS);
    },
    prints: /^os \(opensearch.*: 3 hits[\s\S]*^fn \(lambda.*: 2 hits[\s\S]*^kb \(bedrock_kb.*: 2 hits/m,
  },
  {
    name: 'a Postgres engine',
    packages: ['pg'],
    run: async () => {
      const database = await freshPglite();
      await database.exec(
        "CREATE TABLE documents (id text PRIMARY KEY, body text NOT NULL); INSERT INTO documents VALUES ('iam-rotate-keys', 'Rotate an access key by creating a second key.'), ('sqs-long-polling', 'Long polling waits for messages.');",
      );
      const server = new PGLiteSocketServer({ db: database, host: '127.0.0.1', port: 0 });
      await server.start();
      onTestFinished(async () => {
        await server.stop();
        await database.close();
      });
      const sql = "SELECT id AS doc_uri, body AS content, 1.0 AS score FROM documents WHERE body ILIKE '%' || $1 || '%'";
      const config = await configFile('postgres.json', {
        engines: [{ name: 'pg', postgres: { connection_env: 'SEARCH_DATABASE_URL', sql } }],
      });
      return assay(['engines', '--config', config, '--query', 'access key'], {
        SEARCH_DATABASE_URL: `postgres://postgres:postgres@${server.getServerConn()}/postgres?sslmode=disable`,
      });
    },
    prints: /^pg \(postgres.*: 1 hit.*\n +1 +iam-rotate-keys /m,
  },
];

describe('packages the built CLI loads when a command reaches them', () => {
  it.each(SCENARIOS)(
    '$name: $packages',
    async ({ packages, run, prints }) => {
      // Act
      const outcome = await run();

      // Assess: the command did its work with the package, loaded through the build
      expect({ exitCode: outcome.exitCode, stderr: outcome.exitCode === 0 ? '' : outcome.stderr }).toEqual({ exitCode: 0, stderr: '' });
      expect(outcome.stdout).toMatch(prints);
      const loaded = await packagesLoaded(outcome.resolved);
      expect(packages.filter((name) => !loaded.includes(name))).toEqual([]);
    },
    60_000,
  );
});
