import { networkFault } from '../network/network-fault.js';
import { scrubSecrets } from '../secrets/scrub-secrets.js';
import { BatchProviderError } from './batch-provider.js';

/**
 * An AWS SDK call of the Bedrock batch adapter, its failure read as a
 * BatchProviderError: throttling, a 5xx, a timeout or a network error may
 * pass on a later look (the SDK's own retries are spent); any other error
 * the service answered (access denied, a job it does not know) is a
 * refusal. The message is redacted.
 */
const TRANSIENT_NAMES: ReadonlySet<string> = new Set([
  'ThrottlingException',
  'TooManyRequestsException',
  'ServiceUnavailableException',
  'InternalServerException',
  'InternalFailure',
  'RequestTimeout',
  'RequestTimeoutException',
  'TimeoutError',
  'SlowDown',
]);

export async function awsCall<Value>(call: () => Promise<Value>): Promise<Value> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof BatchProviderError || !(error instanceof Error)) throw error;
    const status = httpStatusOf(error);
    // No HTTP status, and a system error code (ECONNREFUSED, ECONNRESET) or a timeout: the request never got an answer.
    const unanswered = typeof (error as { code?: unknown }).code === 'string' || TRANSIENT_NAMES.has(error.name);
    if (status === undefined && !unanswered) throw error;
    const transient = status === undefined || status === 408 || status === 429 || status >= 500 || TRANSIENT_NAMES.has(error.name);
    const fault = status === undefined ? networkFault(error) : undefined;
    const described =
      status === undefined ? `no answer (${error.name}): ${error.message}` : `HTTP ${status} ${error.name}: ${error.message}`;
    throw new BatchProviderError(scrubSecrets(described), transient, undefined, fault?.unreachable === true);
  }
}

/** The HTTP status an AWS SDK error carries in its metadata, if the service answered. */
export function httpStatusOf(error: unknown): number | undefined {
  const status = (error as { $metadata?: { httpStatusCode?: unknown } } | undefined)?.$metadata?.httpStatusCode;
  return typeof status === 'number' ? status : undefined;
}
