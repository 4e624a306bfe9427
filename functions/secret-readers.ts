import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import { RefreshingSecret } from '../shared/secrets/refreshing-secret.js';
import { refreshingEngineVariables, type EngineVariables } from '../shared/engines/engine-secret.js';

/** How long a container uses a secret it read: a rotated judge key or engine secret is used within this time. */
export const SECRET_MAX_AGE_MS = 300_000;

/**
 * The judge key, read from its secret when first needed, again once
 * SECRET_MAX_AGE_MS old, and again after any failed read. Without a secret
 * configured there is no key (the lexical judge runs). A secret that holds no
 * key is an error that says how to put one in, not "no key": the run's
 * manifest names the LLM judge, and judging with another would be a lie; as a
 * failed read it is not kept, so the next case after put-secret-value has it.
 */
export function judgeKeyReader(secretArn: string | undefined): () => Promise<string | undefined> {
  if (secretArn === undefined) return async () => undefined;
  const secret = new RefreshingSecret({
    name: `the judge secret ${secretArn}`,
    fetch: () => readJudgeKey(secretArn),
    maxAgeMs: SECRET_MAX_AGE_MS,
  });
  return () => secret.read();
}

export function engineVariablesReader(secretArn: string): () => Promise<EngineVariables | undefined> {
  return refreshingEngineVariables({
    name: `the engine secret ${secretArn}`,
    fetch: () => readSecretText(secretArn),
    maxAgeMs: SECRET_MAX_AGE_MS,
  });
}

async function readJudgeKey(secretArn: string): Promise<string> {
  const empty = `it holds no value: put the judge API key in it (aws secretsmanager put-secret-value --secret-id ${secretArn} --secret-string "$OPENAI_API_KEY")`;
  let text: string | undefined;
  try {
    text = await readSecretText(secretArn);
  } catch (error) {
    // A secret created without a value (the stack's, until put-secret-value) has no AWSCURRENT version to read.
    if (hasNoCurrentValue(error)) throw new Error(empty);
    throw error;
  }
  if (text === undefined) throw new Error(empty);
  return text;
}

async function readSecretText(secretArn: string): Promise<string | undefined> {
  // RefreshingSecret decides when to read; Powertools' own cache would only delay a rotation further.
  const secret = await getSecret(secretArn, { forceFetch: true });
  if (typeof secret === 'string') return secret.trim() === '' ? undefined : secret.trim();
  throw new Error('the secret must hold text (SecretString), not binary');
}

/** Secrets Manager's answer for a secret that exists but has no value yet (Powertools keeps it as the cause). */
function hasNoCurrentValue(error: unknown): boolean {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error && cause.name === 'ResourceNotFoundException' && /secret value/i.test(cause.message);
}
