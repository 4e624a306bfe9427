import { connectorOf } from './engine-config.js';
import type { EngineVariant } from './engine-matrix.js';
import type { Environment } from './create-engine.js';

export interface EngineDescription {
  readonly name: string;
  readonly connector: string;
  /** Where the engine sends its queries, with passwords and key-like URL parameters masked. */
  readonly target: string;
}

const SECRET_PARAMETER = /key|token|secret|password|passwd|signature|sig|auth|credential/i;

/** What `assay engines` shows for a variant: never a secret, even one written into the config by mistake. */
export function describeEngine(variant: EngineVariant, env: Environment): EngineDescription {
  const { config } = variant;
  const { kind } = connectorOf(config);
  return { name: variant.name, connector: kind, target: targetOf(variant, env) };
}

function targetOf({ config }: EngineVariant, env: Environment): string {
  if (config.http !== undefined) return `${config.http.method} ${maskUrl(config.http.url)}`;
  if (config.opensearch !== undefined) {
    const { url, index, aws } = config.opensearch;
    return `${maskUrl(url)} index ${index}${aws === undefined ? '' : ` (SigV4, ${aws.service}, ${aws.region})`}`;
  }
  if (config.bedrock_kb !== undefined) {
    const { knowledge_base_id, region, model_arn } = config.bedrock_kb;
    return `knowledge base ${knowledge_base_id} (${region})${model_arn === undefined ? '' : `, answers with ${model_arn}`}`;
  }
  if (config.lambda !== undefined) return `function ${config.lambda.function_name} (${config.lambda.region})`;
  if (config.postgres !== undefined) {
    const name = config.postgres.connection_env;
    const connection = env[name];
    return connection === undefined ? `$${name} (not set)` : `$${name} = ${maskUrl(connection)}`;
  }
  if (config.trec !== undefined) return `run file ${config.trec.path}${config.trec.tag === undefined ? '' : ` tag ${config.trec.tag}`}`;
  return '';
}

/** Masks a URL's password and the values of key-like query parameters; placeholders stay as written. */
export function maskUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // A URL whose host is a placeholder is not parseable; mask by pattern instead.
    return text
      .replace(/(\/\/[^/:@]*:)[^/@]*@/, '$1***@')
      .replace(/([?&][^=&]*?(?:key|token|secret|password|passwd|signature|sig|auth|credential)[^=&]*=)[^&#]*/gi, '$1***');
  }
  if (url.password !== '') url.password = '***';
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_PARAMETER.test(name) && !/^\{\{.*\}\}$/.test(url.searchParams.get(name) ?? '')) url.searchParams.set(name, '***');
  }
  const masked = url.toString().replace(/%7B/gi, '{').replace(/%7D/gi, '}');
  // URL adds a "/" to a bare origin; show the endpoint as it was written.
  return masked.endsWith('/') && !text.endsWith('/') ? masked.slice(0, -1) : masked;
}
