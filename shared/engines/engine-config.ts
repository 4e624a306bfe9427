import { z } from 'zod';
import { compileExpression } from './answer-mapping.js';
import { CONNECTOR_KINDS, CONNECTOR_SCHEMAS, type ConnectorKind } from './connector-configs.js';
import { placeholdersIn, unknownPlaceholders } from './engine-template.js';

/**
 * One entry of the config's `engines:` list: a name, exactly one connector
 * block, and optionally a matrix of variables that expands it into one engine
 * per combination. The checks that span fields (one connector, known
 * placeholders, used matrix variables, valid JMESPath) run here, at load, so a
 * sweep never fails half-way for a typo.
 */

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const matrixValueSchema = z.union([z.string(), z.number().finite(), z.boolean()]);
export const matrixSchema = z.record(
  z.string().regex(VARIABLE_NAME, 'expected a variable name of letters, digits and underscores'),
  z.array(matrixValueSchema).min(1),
);

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_RETRIES = 2;
/** 16 MiB: thousands of hits with their passages, well inside a 256 MB worker. */
export const DEFAULT_MAX_ANSWER_BYTES = 16 * 1024 * 1024;

const engineFields = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9._-]+$/, 'expected a name of letters, digits, ".", "_" and "-"'),
  matrix: matrixSchema.optional(),
  /** Per attempt; the http block's own timeout_ms wins for http. */
  timeout_ms: z.number().int().positive().default(DEFAULT_TIMEOUT_MS),
  /** Further attempts after a transient failure. */
  retries: z.number().int().min(0).max(10).default(DEFAULT_RETRIES),
  /** The largest answer read from the engine (http, opensearch, lambda); absent means DEFAULT_MAX_ANSWER_BYTES, so older configs hash as before. */
  max_answer_bytes: z.number().int().positive().optional(),
  http: CONNECTOR_SCHEMAS.http.optional(),
  opensearch: CONNECTOR_SCHEMAS.opensearch.optional(),
  bedrock_kb: CONNECTOR_SCHEMAS.bedrock_kb.optional(),
  lambda: CONNECTOR_SCHEMAS.lambda.optional(),
  postgres: CONNECTOR_SCHEMAS.postgres.optional(),
  trec: CONNECTOR_SCHEMAS.trec.optional(),
});
type EngineFields = z.infer<typeof engineFields>;

export const engineConfigSchema = engineFields.superRefine(checkEngine);
export type EngineConfig = z.infer<typeof engineConfigSchema>;

/** The engines list: names must differ, as they key every result and report row. */
export const engineListSchema = z.array(engineConfigSchema).superRefine((engines, context) => {
  const seen = new Set<string>();
  engines.forEach((engine, index) => {
    if (seen.has(engine.name)) {
      context.addIssue({
        code: 'custom',
        path: [index, 'name'],
        message: `engine name "${engine.name}" is used twice`,
        params: { fix: 'give each engine its own name' },
      });
    }
    seen.add(engine.name);
  });
});

export const ENGINE_KEYS = Object.keys(engineFields.shape);

/** The connector block an engine uses, with its kind. */
export function connectorOf(engine: EngineFields): { kind: ConnectorKind; config: unknown } {
  const kind = CONNECTOR_KINDS.find((candidate) => engine[candidate] !== undefined);
  if (kind === undefined) throw new Error(`Engine ${engine.name} has no connector; the config was not checked`);
  return { kind, config: engine[kind] };
}

/** The templated fields of each connector, with their paths inside the block. */
export function templatedFields(kind: ConnectorKind, block: Record<string, unknown>): [string[], unknown][] {
  const named = (...keys: string[]) =>
    keys.filter((key) => block[key] !== undefined).map((key): [string[], unknown] => [[key], block[key]]);
  switch (kind) {
    case 'http':
      return named('url', 'headers', 'body');
    case 'opensearch':
      return named('index', 'query', 'headers');
    case 'lambda':
      return named('function_name', 'payload');
    default:
      return [];
  }
}

function checkEngine(engine: EngineFields, context: z.core.$RefinementCtx<EngineFields>): void {
  const present = CONNECTOR_KINDS.filter((kind) => engine[kind] !== undefined);
  const fix = `give exactly one of the connector keys ${CONNECTOR_KINDS.join(', ')}`;
  if (present.length !== 1) {
    const message = present.length === 0 ? 'names no connector' : `names ${present.length} connectors (${present.join(', ')})`;
    context.addIssue({ code: 'custom', path: [], message, params: { fix } });
    return;
  }
  const kind = present[0] as ConnectorKind;
  const block = engine[kind] as Record<string, unknown>;
  const variables = Object.keys(engine.matrix ?? {});
  const used = new Set<string>();
  for (const [path, value] of templatedFields(kind, block)) {
    const names = placeholdersIn(value);
    for (const name of names) used.add(name);
    for (const name of unknownPlaceholders(names, variables)) {
      const known = ['query', 'request_id', ...variables, 'env.NAME'].join(', ');
      context.addIssue({
        code: 'custom',
        path: [kind, ...path],
        message: `unknown placeholder {{${name}}}`,
        params: { fix: `use one of ${known}, or add "${name}" to the matrix` },
      });
    }
  }
  if (kind === 'postgres') checkPostgresParams(engine, variables, used, context);
  checkLiteralCredentials(kind, block, context);
  for (const key of ['results', 'response']) {
    const text = block[key];
    if (typeof text !== 'string') continue;
    const compiled = compileExpression(text);
    if (!compiled.ok) {
      context.addIssue({
        code: 'custom',
        path: [kind, key],
        message: `not a valid JMESPath expression: ${compiled.error}`,
        params: { fix: 'write a JMESPath expression, e.g. hits[].{doc_uri: id, content: text, score: score}' },
      });
    }
  }
  for (const variable of variables) {
    if (!used.has(variable)) {
      context.addIssue({
        code: 'custom',
        path: ['matrix', variable],
        message: `matrix variable "${variable}" is used by no template of the ${kind} connector`,
        params: {
          fix: `write {{${variable}}} where the value goes${kind === 'postgres' ? ' or list it under params' : ''}, or correct the variable's spelling`,
        },
      });
    }
  }
}

function checkPostgresParams(
  engine: EngineFields,
  variables: readonly string[],
  used: Set<string>,
  context: z.core.$RefinementCtx<EngineFields>,
): void {
  const postgres = engine.postgres;
  if (postgres === undefined) return;
  postgres.params.forEach((name, index) => {
    used.add(name);
    if (!variables.includes(name) && name !== 'request_id') {
      context.addIssue({
        code: 'custom',
        path: ['postgres', 'params', index],
        message: `unknown variable "${name}"`,
        params: { fix: `list matrix variables (${variables.join(', ') || 'none defined'}) or request_id; $1 is always the query` },
      });
    }
  });
  const highest = Math.max(0, ...[...postgres.sql.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
  if (highest > postgres.params.length + 1) {
    context.addIssue({
      code: 'custom',
      path: ['postgres', 'sql'],
      message: `uses $${highest} but only $1 (the query) to $${postgres.params.length + 1} are given`,
      params: { fix: 'list one variable under params for each of $2, $3, ...' },
    });
  }
}

const CREDENTIAL_HEADER = /authorization|api[-_]?key|token|secret|password|cookie/i;

/**
 * A credential header must come from the environment: the config is copied
 * into every run's manifest and hashed into its id, where a literal key would
 * leak.
 */
function checkLiteralCredentials(kind: ConnectorKind, block: Record<string, unknown>, context: z.core.$RefinementCtx<EngineFields>): void {
  const url = block.url;
  if (typeof url === 'string') checkUrlCredentials(kind, url, context);
  const headers = block.headers;
  if (typeof headers !== 'object' || headers === null) return;
  for (const [name, value] of Object.entries(headers)) {
    if (CREDENTIAL_HEADER.test(name) && typeof value === 'string' && !value.includes('{{env.')) {
      context.addIssue({
        code: 'custom',
        path: [kind, 'headers', name],
        message: "holds a literal credential; the config is copied into every run's manifest",
        params: { fix: `read it from the environment, e.g. "${name}": "Bearer {{env.SEARCH_TOKEN}}", and export SEARCH_TOKEN` },
      });
    }
  }
}

/**
 * The URL is printed in every message about the engine, as configured: a
 * password in its user info or a credential in its query must come from the
 * environment too, where messages show only the template.
 */
function checkUrlCredentials(kind: ConnectorKind, url: string, context: z.core.$RefinementCtx<EngineFields>): void {
  const literal = (value: string): boolean => value !== '' && !value.includes('{{env.');
  const userInfo = /^[a-z][a-z0-9+.-]*:\/\/([^/?#@]*)@/i.exec(url)?.[1];
  const password = userInfo === undefined || !userInfo.includes(':') ? undefined : userInfo.slice(userInfo.indexOf(':') + 1);
  const query = url.includes('?') ? (url.slice(url.indexOf('?') + 1).split('#')[0] ?? '') : '';
  const credentialParameters = query
    .split('&')
    .map((pair) => [pair.split('=')[0] ?? '', pair.slice(pair.indexOf('=') + 1)] as const)
    .filter(([name, value]) => CREDENTIAL_HEADER.test(name) && literal(value));
  const found =
    password !== undefined && literal(password)
      ? 'a literal password'
      : credentialParameters.length > 0
        ? `a literal credential in its query (${credentialParameters[0]?.[0]})`
        : undefined;
  if (found === undefined) return;
  context.addIssue({
    code: 'custom',
    path: [kind, 'url'],
    message: `holds ${found}; the URL is printed in the engine's messages and copied into every run's manifest`,
    params: {
      fix: 'read it from the environment, e.g. "https://search.example.com/q?api_key={{env.SEARCH_KEY}}" or an Authorization header, and export the variable',
    },
  });
}
