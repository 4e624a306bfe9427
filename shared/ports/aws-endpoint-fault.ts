import { networkFault } from '../network/network-fault.js';

/**
 * The S3 and SQS endpoint a command was pointed at (`--aws-endpoint`, or AWS
 * itself) could not be used at all: nothing answers there (the emulator was
 * not started, a wrong port), or what answers is no S3 or SQS service (a web
 * server, the example engine), whose page the SDK fails to parse as XML.
 * Its message says which and what to do, where the SDK's says `connect
 * ECONNREFUSED` or `XML parse error: mismatched tags`.
 */
export class AwsEndpointFault extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'AwsEndpointFault';
  }
}

/** What an AWS SDK error hides about the HTTP answer it failed to read. */
interface AnswerShape {
  readonly $response?: { readonly statusCode?: unknown; readonly headers?: Record<string, unknown> };
  readonly $metadata?: { readonly httpStatusCode?: unknown };
}

/**
 * The fault behind an AWS SDK call's error when the endpoint itself is the
 * trouble, or undefined for any other error (a missing key, a refused grant,
 * a throttled call). `endpoint` is `--aws-endpoint`'s URL; undefined for AWS.
 * `service` is the one the failed call was to, where the caller knows it.
 */
export function awsEndpointFaultOf(error: unknown, endpoint: string | undefined, service?: 'S3' | 'SQS'): AwsEndpointFault | undefined {
  if (error instanceof AwsEndpointFault) return error;
  const where = endpoint === undefined ? 'AWS' : `--aws-endpoint ${endpoint}`;
  const fault = networkFault(error);
  if (fault?.unreachable === true) {
    const fix =
      endpoint === undefined
        ? 'check the network, a proxy or firewall on the way, and the region'
        : 'start the S3 and SQS service there (the emulator), or give the address it listens on';
    return new AwsEndpointFault(`nothing answers at ${where}: ${fault.description}; ${fix}`, error);
  }
  const answer = notAnAwsAnswer(error);
  if (answer === undefined) return undefined;
  // An S3 alone (MinIO, say) answers the bucket's calls and not the queues'.
  if (service === 'SQS') {
    return new AwsEndpointFault(
      `the server at ${where} is no SQS service: its answer to an SQS call, ${answer}, is none the AWS SDK can read; ` +
        'assay needs S3 and SQS at that one address (an emulator of both)',
      error,
    );
  }
  return new AwsEndpointFault(
    `the server at ${where} is no S3 or SQS service: it answered ${answer}, which the AWS SDK cannot read; give the address of the S3 and SQS endpoint (the emulator's port)`,
    error,
  );
}

/** "HTTP 404 with text/html" when the SDK failed to read an answer that is no service's (its message says "Deserialization error"). */
function notAnAwsAnswer(error: unknown): string | undefined {
  if (!(error instanceof Error) || !error.message.includes('Deserialization error')) return undefined;
  const { $response, $metadata } = error as AnswerShape;
  const status = $response?.statusCode ?? $metadata?.httpStatusCode;
  const type = $response?.headers?.['content-type'];
  return `HTTP ${typeof status === 'number' ? status : '?'}${typeof type === 'string' ? ` with ${type.split(';')[0]}` : ''}`;
}
