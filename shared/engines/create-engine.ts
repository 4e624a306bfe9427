import type { Result } from '../schema/result.js';
import { awsSecrets } from './aws-secrets.js';
import type { ConnectorContext } from './connector-context.js';
import type {
  BedrockKnowledgeBaseConnectorConfig,
  HttpConnectorConfig,
  LambdaConnectorConfig,
  OpensearchConnectorConfig,
  PostgresConnectorConfig,
  TrecConnectorConfig,
} from './connector-configs.js';
import { connectorOf, DEFAULT_MAX_ANSWER_BYTES, templatedFields, type EngineConfig } from './engine-config.js';
import { expandMatrix, type EngineVariant } from './engine-matrix.js';
import { envNamesIn, placeholdersIn } from './engine-template.js';
import type { Connector, Engine } from './engine.js';
import { lazyConnector } from './lazy-connector.js';
import { retryingEngine } from './retrying-engine.js';

export type Environment = Readonly<Record<string, string | undefined>>;
export type EngineCreation = Result<Engine>;
/** Every variant's engine, or every problem found (each a sentence), none kept. */
export type EnginesCreation = Result<Engine[], string[]>;

/** The environment variables an engine reads: `{{env.NAME}}` placeholders and postgres' connection_env. */
export function envNamesOf(config: EngineConfig): string[] {
  const { kind, config: block } = connectorOf(config);
  const names = envNamesIn(templatedFields(kind, block as Record<string, unknown>).flatMap(([, value]) => placeholdersIn(value)));
  return config.postgres === undefined ? names : [...new Set([...names, config.postgres.connection_env])];
}

/**
 * Builds the engine of one variant, its clients and pools included. A
 * variable the environment lacks is an error naming it, before any call.
 */
export function createEngine(variant: EngineVariant, env: Environment): EngineCreation {
  const { config } = variant;
  const missing = envNamesOf(config).filter((name) => env[name] === undefined || env[name] === '');
  if (missing.length > 0) {
    const names = missing.join(', ');
    return {
      ok: false,
      error: `engine "${variant.name}": the environment variable${missing.length > 1 ? 's' : ''} ${names} ${missing.length > 1 ? 'are' : 'is'} not set (fix: export ${names} before running)`,
    };
  }
  const timeoutMs = config.http?.timeout_ms ?? config.timeout_ms;
  const context: ConnectorContext = { variables: variant.variables, env };
  const limits: ConnectorLimits = { timeoutMs, maxAnswerBytes: config.max_answer_bytes ?? DEFAULT_MAX_ANSWER_BYTES };
  return {
    ok: true,
    value: retryingEngine(
      variant.name,
      connectorFor(config, context, limits),
      { retries: config.retries, timeoutMs },
      secretsOf(config, env),
    ),
  };
}

/** Expands every engine's matrix and builds all variants; on any error none is kept. */
export function expandEngines(configs: readonly EngineConfig[], env: Environment): EnginesCreation {
  const variants = configs.flatMap(expandMatrix);
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const variant of variants) {
    if (seen.has(variant.name))
      errors.push(`engine "${variant.name}" is defined twice (fix: rename an engine or change its matrix values)`);
    seen.add(variant.name);
  }
  if (errors.length > 0) return { ok: false, error: errors };
  const creations = variants.map((variant) => createEngine(variant, env));
  const engines = creations.flatMap((creation) => (creation.ok ? [creation.value] : []));
  const failed = creations.flatMap((creation) => (creation.ok ? [] : [creation.error]));
  if (failed.length === 0) return { ok: true, value: engines };
  // The engines built are closed (none has connected yet: a connector is made on first use); allSettled, so that a close that fails cannot become an unhandled rejection that ends the process.
  void Promise.allSettled(engines.map((engine) => engine.close()));
  return { ok: false, error: failed };
}

/** What bounds one attempt of a connector: its time and the size of the answer it reads. */
interface ConnectorLimits {
  readonly timeoutMs: number;
  readonly maxAnswerBytes: number;
}

function connectorFor(config: EngineConfig, context: ConnectorContext, { timeoutMs, maxAnswerBytes }: ConnectorLimits): Connector {
  const { kind, config: block } = connectorOf(config);
  switch (kind) {
    case 'http':
      return lazyConnector(async () =>
        (await import('./http-connector.js')).httpConnector(block as HttpConnectorConfig, context, maxAnswerBytes),
      );
    case 'opensearch':
      return lazyConnector(async () =>
        (await import('./opensearch-connector.js')).opensearchConnector(
          block as OpensearchConnectorConfig,
          context,
          timeoutMs,
          maxAnswerBytes,
        ),
      );
    case 'bedrock_kb':
      return lazyConnector(async () =>
        (await import('./bedrock-kb-connector.js')).bedrockKnowledgeBaseConnector(block as BedrockKnowledgeBaseConnectorConfig, context),
      );
    case 'lambda':
      return lazyConnector(async () =>
        (await import('./lambda-connector.js')).lambdaConnector(block as LambdaConnectorConfig, context, maxAnswerBytes),
      );
    case 'postgres':
      return lazyConnector(async () =>
        (await import('./postgres-connector.js')).postgresConnector(block as PostgresConnectorConfig, context, timeoutMs),
      );
    case 'trec':
      return lazyConnector(async () => (await import('./trec-connector.js')).trecConnector(block as TrecConnectorConfig));
  }
}

/**
 * Values that must never reach a message: the env values the engine reads,
 * AWS keys, a database password. Of a connection string only the password
 * counts: its scheme, host and user are no secret, and masking every run of
 * 8 characters of the whole string would mask "postgres" in any message.
 */
function secretsOf(config: EngineConfig, env: Environment): string[] {
  const connectionEnv = config.postgres?.connection_env;
  const values = envNamesOf(config).flatMap((name) => (name === connectionEnv ? [] : (env[name] ?? [])));
  const connection = connectionEnv === undefined ? undefined : env[connectionEnv];
  const password = connection === undefined ? undefined : passwordIn(connection);
  return [...values, ...awsSecrets(env), ...(password === undefined ? [] : [password])];
}

function passwordIn(connection: string): string | undefined {
  try {
    const password = decodeURIComponent(new URL(connection).password);
    return password === '' ? undefined : password;
  } catch {
    return undefined;
  }
}
