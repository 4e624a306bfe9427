import { networkFault } from '../network/network-fault.js';
import { scrubSecrets } from '../secrets/scrub-secrets.js';
import { httpMismatch, type BedrockHttpVersion, type HttpMismatch } from './bedrock-http-version.js';
import type { RequestFailure } from './judge-failure.js';

/**
 * What a failed Converse call means, read from the AWS SDK's error: its name
 * (the `x-amzn-errortype` the service answered), its HTTP status and its
 * message, mapped onto the same kinds the OpenAI wire has (judge-failure.ts):
 *
 * - ThrottlingException, ServiceUnavailableException, ModelNotReadyException,
 *   InternalServerException, ModelTimeoutException, ModelErrorException,
 *   ServiceQuotaExceededException, and any 429, 408 or 5xx: transient (the
 *   SDK has retried the ones it retries; the case goes back through the queue);
 * - AccessDeniedException, UnrecognizedClientException, an expired or invalid
 *   signature, missing credentials, ResourceNotFoundException (no such model
 *   in the region): fatal, like a 401: no later call of this client can succeed;
 * - a server that does not speak the HTTP version the client spoke, seen
 *   before it ever answered (bedrock-http-version.ts): fatal, as every call
 *   would fail the same way; the message names the version spoken, what came
 *   back, and judge.bedrock.http_version. After an answer the same error is
 *   a connection that broke: transient;
 * - ValidationException naming the tool configuration: the model has no
 *   forced tool use, so the output mode steps down to JSON in text; naming
 *   temperature as unsupported: sent again without it; about the input's
 *   length: the prompt is too long; anything else: that judgment's error.
 */

const TRANSIENT = new Set([
  'ThrottlingException',
  'ServiceUnavailableException',
  'ModelNotReadyException',
  'InternalServerException',
  'ModelTimeoutException',
  'ModelErrorException',
  'ServiceQuotaExceededException',
  'TimeoutError',
]);

const REFUSED_CREDENTIALS = new Set([
  'AccessDeniedException',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'ExpiredTokenException',
  'IncompleteSignature',
]);

interface AwsError {
  readonly name?: unknown;
  readonly message?: unknown;
  readonly $fault?: unknown;
  readonly $metadata?: { readonly httpStatusCode?: unknown };
}

/** How the client spoke to the server, and whether the server has answered it yet. */
export interface BedrockWire {
  /** The endpoint as messages show it: no user info, query or fragment. */
  readonly url: string;
  readonly version: BedrockHttpVersion;
  /** judge.bedrock.http_version chose the version; else the endpoint's scheme did. */
  readonly chosen: boolean;
  /** An HTTP answer came back before: the server speaks the version, and a protocol error now is a passing fault. */
  readonly answered: boolean;
}

/** `target` names the model and region in messages: `model anthropic.claude-... in us-east-1`; `wire` how it was asked. */
export function classifyBedrockFailure(error: unknown, target: string, wire: BedrockWire): RequestFailure {
  const mismatch = httpMismatch(error, wire.version);
  if (mismatch !== undefined) {
    // A server that has answered in this version speaks it: the same error now is a connection that broke, worth another try.
    if (wire.answered)
      return { kind: 'failed', error: scrubSecrets(`the connection to Amazon Bedrock failed: ${mismatch.seen}`), transient: true };
    return { kind: 'fatal', error: scrubSecrets(mismatchMessage(mismatch, wire)) };
  }
  if (error instanceof Error && error.name === 'TimeoutError' && (error as AwsError).$metadata?.httpStatusCode === undefined) {
    // Each handler words an attempt past judge.timeout_ms its own way (HTTP/1.1's with ETIMEDOUT, which would read as a connection that timed out).
    return {
      kind: 'failed',
      error: scrubSecrets(`the judge call to Amazon Bedrock timed out: ${error.message.split('\n')[0]}`),
      transient: true,
    };
  }
  const fault = networkFault(error);
  if (fault !== undefined) {
    const what = fault.unreachable ? 'cannot reach Amazon Bedrock' : 'the connection to Amazon Bedrock failed';
    return { kind: 'failed', error: scrubSecrets(`${what}: ${fault.description}`), transient: true };
  }
  if (!(error instanceof Error)) throw error;
  const aws = error as AwsError;
  const name = typeof aws.name === 'string' ? aws.name : 'Error';
  const status = typeof aws.$metadata?.httpStatusCode === 'number' ? aws.$metadata.httpStatusCode : undefined;
  const said = `${name}${status === undefined ? '' : `, HTTP ${status}`}: ${error.message}`;
  const failed = (text: string, transient: boolean): RequestFailure => ({ kind: 'failed', error: scrubSecrets(text), transient });
  if (name === 'SyntaxError' && status !== undefined && status < 300) {
    // Over HTTP/2 the SDK can take a body cut short for a whole one: JSON that does not parse is a connection closed mid-answer.
    return failed(
      `the connection to Amazon Bedrock failed: the answer is not whole JSON, as when the connection is closed mid-answer (${error.message.split('\n')[0]})`,
      true,
    );
  }
  if (name === 'CredentialsProviderError') {
    return {
      kind: 'fatal',
      error: scrubSecrets(
        `no AWS credentials for Amazon Bedrock (${error.message}); set AWS_PROFILE or AWS_ACCESS_KEY_ID, or run with a role that may call bedrock:InvokeModel`,
      ),
    };
  }
  if (REFUSED_CREDENTIALS.has(name) || status === 401 || status === 403) {
    const grant = `check the AWS credentials and that they may call bedrock:InvokeModel on the ${target} (on AWS, the judge worker's role: deploy with -c judgeProvider=bedrock and the model in judgeModel or judgeBedrockModels)`;
    return { kind: 'fatal', error: scrubSecrets(`Amazon Bedrock refused the call (${said}); ${grant}`) };
  }
  if (name === 'ResourceNotFoundException' || status === 404) {
    return { kind: 'fatal', error: scrubSecrets(`Amazon Bedrock has no ${target} (${said}); check judge.bedrock.model_id and region`) };
  }
  if (TRANSIENT.has(name) || status === 408 || status === 429 || (status !== undefined && status >= 500) || aws.$fault === 'server') {
    return failed(`Amazon Bedrock answered ${said}`, true);
  }
  if (name === 'ValidationException' || status === 400) return classifyValidation(error.message, said, failed);
  if (status === undefined && aws.$metadata === undefined) throw error;
  return failed(`Amazon Bedrock answered ${said}`, false);
}

/** What the client spoke, what came back, and the setting that makes it speak the other version. */
function mismatchMessage({ spoken, seen }: HttpMismatch, wire: BedrockWire): string {
  const scheme = new URL(wire.url).protocol.replace(':', '');
  const why = wire.chosen ? 'as judge.bedrock.http_version says' : `as it does to every ${scheme}:// endpoint`;
  if (spoken === '2') {
    return `Amazon Bedrock at ${wire.url} did not speak HTTP/2 (${seen}): the judge client spoke HTTP/2, ${why}; set judge.bedrock.http_version: "1.1" if the server speaks HTTP/1.1 (a proxy, a gateway)`;
  }
  return `Amazon Bedrock at ${wire.url} did not answer in HTTP/1.1 (${seen}): the judge client spoke HTTP/1.1, ${why}; set judge.bedrock.http_version: "2" if the server speaks only HTTP/2 (cleartext h2c over http://)`;
}

function classifyValidation(message: string, said: string, failed: (text: string, transient: boolean) => RequestFailure): RequestFailure {
  if (/too long|too many (input )?tokens|context (length|window)|maximum (context|input)|exceeds? the max/i.test(message)) {
    return failed(`the prompt is too long for the judge model (${said})`, false);
  }
  if (
    /\btemperature\b/i.test(message) &&
    /not supported|unsupported|doesn't support|does not support|cannot both|not allowed/i.test(message)
  ) {
    return { kind: 'parameter-refused', parameter: 'temperature' };
  }
  if (/toolChoice|toolConfig|tool use|tool_use|\btools?\b/i.test(message)) return { kind: 'mode-refused' };
  return failed(`Amazon Bedrock answered ${said}`, false);
}
