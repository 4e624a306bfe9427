import { z } from 'zod';
import type { Environment } from './create-engine.js';
import { RefreshingSecret } from '../secrets/refreshing-secret.js';

/**
 * The engines' credentials on AWS: one secret whose SecretString is a JSON
 * object of variable names and values (`{"SEARCH_TOKEN": "...", "PG_URL":
 * "..."}`), laid over the function's environment for the engines, so
 * `{{env.SEARCH_TOKEN}}` and `connection_env: PG_URL` read them as they read
 * exported variables locally.
 */
export type EngineVariables = Readonly<Record<string, string>>;

const variableName = /^[A-Za-z_][A-Za-z0-9_]*$/;
const engineVariablesSchema = z.record(z.string().regex(variableName), z.string());

const EXPECTED_SHAPE = 'a JSON object of variable names and string values, such as {"SEARCH_TOKEN": "..."}';

/** The secret holds no engine variables in the expected shape; the message names the problem, never a value. */
export class EngineSecretError extends Error {
  override readonly name = 'EngineSecretError';
}

/** The variables of the secret's text; an empty text holds none. */
export function parseEngineSecret(text: string): EngineVariables {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // The parser's message quotes the text, which is the secret.
    throw new EngineSecretError(`it is not JSON (expected ${EXPECTED_SHAPE})`);
  }
  const parsed = engineVariablesSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = new Set(parsed.error.issues.map(describeIssue));
  throw new EngineSecretError(`${[...problems].join('; ')} (expected ${EXPECTED_SHAPE})`);
}

/** A key that is no variable name may be a value pasted in the wrong place, so it is not quoted. */
function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_key') return 'a key is not an environment variable name (letters, digits and "_", not starting with a digit)';
  if (issue.path.length === 0) return 'it is not a JSON object';
  return `the value of ${String(issue.path[0])} is not a string`;
}

/** The engines' environment: the process's, with the secret's variables over it. */
export function engineEnvironment(base: Environment, variables: EngineVariables | undefined): Environment {
  return variables === undefined ? base : { ...base, ...variables };
}

export interface EngineSecretOptions {
  /** Names the secret in error messages: its ARN, never its value. */
  readonly name: string;
  /** Reads the secret's text; undefined when it holds none. May throw. */
  readonly fetch: () => Promise<string | undefined>;
  /** How long the variables are used before the secret is read again. */
  readonly maxAgeMs: number;
  readonly now?: () => number;
}

/**
 * The engine secret's variables, read again once `maxAgeMs` old. A secret
 * that does not parse counts as a failed read, so it is not kept: the next
 * case reads it again and a corrected value is used at once. The same object
 * comes back while the text is unchanged.
 */
export function refreshingEngineVariables(options: EngineSecretOptions): () => Promise<EngineVariables | undefined> {
  let last: { readonly text: string; readonly variables: EngineVariables } | undefined;
  const variablesOf = (text: string): EngineVariables => {
    if (last?.text !== text) last = { text, variables: parseEngineSecret(text) };
    return last.variables;
  };
  const secret = new RefreshingSecret({
    name: options.name,
    fetch: async () => {
      const text = await options.fetch();
      if (text !== undefined) variablesOf(text);
      return text;
    },
    maxAgeMs: options.maxAgeMs,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  return async () => {
    const text = await secret.read();
    return text === undefined ? undefined : variablesOf(text);
  };
}
