import { z } from 'zod';
import { BAD_PORT_FIX, badPortProblem, fetchRefusedPort } from '../network/fetch-bad-ports.js';

/**
 * The six connector blocks of an engine in the config file. Every object is
 * strict, so a misspelt key is an error rather than a silently ignored
 * setting. There are no credential fields on purpose: secrets come from the
 * environment (`{{env.NAME}}`, `connection_env`, the AWS credential chain).
 */

const httpUrl = z.string().regex(/^(https?:\/\/|\{\{)/, 'expected an http or https URL');
/**
 * The http connector calls through fetch, which refuses some ports before any
 * connection (shared/network/fetch-bad-ports.ts). A host or port given by a template
 * is not known here: the connector names the port when the call is refused.
 */
const fetchedUrl = httpUrl.superRefine((url, context) => {
  const port = fetchRefusedPort(url);
  if (port !== undefined) context.addIssue({ code: 'custom', message: badPortProblem(port), params: { fix: BAD_PORT_FIX } });
});
const timeoutMs = z.number().int().positive();
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name');
const region = z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'expected an AWS region such as us-east-1');

export const httpConnectorSchema = z.strictObject({
  url: fetchedUrl,
  method: z.enum(['POST', 'GET']).default('POST'),
  headers: z.record(z.string(), z.string()).default({}),
  /** Sent as JSON with POST; templated. */
  body: z.json().optional(),
  timeout_ms: timeoutMs.optional(),
  /** JMESPath from the JSON answer to a list of {doc_uri, content?, score?}. */
  results: z.string().min(1),
  /** JMESPath from the JSON answer to the generated answer text. */
  response: z.string().min(1).optional(),
});

export const opensearchConnectorSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/ }),
  index: z.string().min(1),
  /** The body of `_search` (query DSL), templated. */
  query: z.record(z.string(), z.json()),
  id_field: z.string().min(1).default('_id'),
  content_field: z.string().min(1).optional(),
  size: z.number().int().positive().default(10),
  headers: z.record(z.string(), z.string()).default({}),
  aws: z.strictObject({ region, service: z.enum(['es', 'aoss']) }).optional(),
});

export const bedrockKnowledgeBaseConnectorSchema = z.strictObject({
  knowledge_base_id: z.string().regex(/^[0-9a-zA-Z]{10}$/, 'expected a knowledge base id of 10 letters and digits'),
  number_of_results: z.number().int().min(1).max(100).default(10),
  region,
  /** With a model, RetrieveAndGenerate answers too; without, Retrieve gives the hits only. */
  model_arn: z.string().min(1).optional(),
  /** Another endpoint for the service (a VPC endpoint); absent means the region's public one. */
  endpoint: z.url({ protocol: /^https?$/ }).optional(),
});

export const lambdaConnectorSchema = z.strictObject({
  function_name: z.string().min(1),
  region,
  payload: z.json().default({ query: '{{query}}', request_id: '{{request_id}}' }),
  results: z.string().min(1),
  response: z.string().min(1).optional(),
  endpoint: z.url({ protocol: /^https?$/ }).optional(),
});

export const postgresConnectorSchema = z.strictObject({
  connection_env: envName,
  /** `$1` is the query text; `$2`, `$3`... are the variables listed in `params`, in order. */
  sql: z.string().min(1),
  params: z.array(z.string().min(1)).default([]),
});

export const trecConnectorSchema = z.strictObject({
  path: z.string().min(1),
  /** The run tag to read when the file holds several runs. */
  tag: z.string().min(1).optional(),
});

export const CONNECTOR_SCHEMAS = {
  http: httpConnectorSchema,
  opensearch: opensearchConnectorSchema,
  bedrock_kb: bedrockKnowledgeBaseConnectorSchema,
  lambda: lambdaConnectorSchema,
  postgres: postgresConnectorSchema,
  trec: trecConnectorSchema,
} as const;

export type ConnectorKind = keyof typeof CONNECTOR_SCHEMAS;
export const CONNECTOR_KINDS = Object.keys(CONNECTOR_SCHEMAS) as ConnectorKind[];

export type HttpConnectorConfig = z.infer<typeof httpConnectorSchema>;
export type OpensearchConnectorConfig = z.infer<typeof opensearchConnectorSchema>;
export type BedrockKnowledgeBaseConnectorConfig = z.infer<typeof bedrockKnowledgeBaseConnectorSchema>;
export type LambdaConnectorConfig = z.infer<typeof lambdaConnectorSchema>;
export type PostgresConnectorConfig = z.infer<typeof postgresConnectorSchema>;
export type TrecConnectorConfig = z.infer<typeof trecConnectorSchema>;
