import { networkFault } from '../network/network-fault.js';
import { scrubSecrets } from '../secrets/scrub-secrets.js';
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

const REFUSED_CREDENTIALS = new Set(['AccessDeniedException', 'UnrecognizedClientException', 'InvalidSignatureException', 'ExpiredTokenException', 'IncompleteSignature']);

interface AwsError {
  readonly name?: unknown;
  readonly message?: unknown;
  readonly $fault?: unknown;
  readonly $metadata?: { readonly httpStatusCode?: unknown };
}

/** `target` names the model and region in messages: `model anthropic.claude-... in us-east-1`. */
export function classifyBedrockFailure(error: unknown, target: string): RequestFailure {
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
    return failed(`the connection to Amazon Bedrock failed: the answer is not whole JSON, as when the connection is closed mid-answer (${error.message.split('\n')[0]})`, true);
  }
  if (name === 'CredentialsProviderError') {
    return { kind: 'fatal', error: scrubSecrets(`no AWS credentials for Amazon Bedrock (${error.message}); set AWS_PROFILE or AWS_ACCESS_KEY_ID, or run with a role that may call bedrock:InvokeModel`) };
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

function classifyValidation(message: string, said: string, failed: (text: string, transient: boolean) => RequestFailure): RequestFailure {
  if (/too long|too many (input )?tokens|context (length|window)|maximum (context|input)|exceeds? the max/i.test(message)) {
    return failed(`the prompt is too long for the judge model (${said})`, false);
  }
  if (/\btemperature\b/i.test(message) && /not supported|unsupported|doesn't support|does not support|cannot both|not allowed/i.test(message)) {
    return { kind: 'parameter-refused', parameter: 'temperature' };
  }
  if (/toolChoice|toolConfig|tool use|tool_use|\btools?\b/i.test(message)) return { kind: 'mode-refused' };
  return failed(`Amazon Bedrock answered ${said}`, false);
}
