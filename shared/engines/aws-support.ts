import { quietNodeVersionNotice } from '../ports/aws-node-notice.js';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import type { ConnectorResult } from './engine.js';
import { isTransientStatus, permanent, transient } from './engine-failure.js';
import { networkFault } from '../network/network-fault.js';

type CredentialProvider = ReturnType<typeof defaultProvider>;

/**
 * AWS credentials for a connector: the key pair in the injected environment
 * when it has one (tests, a Lambda handed its variables), else the standard
 * chain (environment, shared config and SSO, web identity, container and
 * instance roles).
 */
export function awsCredentials(env: Readonly<Record<string, string | undefined>>): CredentialProvider {
  // Every AWS connector asks for its credentials before it builds its client.
  quietNodeVersionNotice();
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (accessKeyId !== undefined && secretAccessKey !== undefined) {
    const sessionToken = env.AWS_SESSION_TOKEN;
    const identity = { accessKeyId, secretAccessKey, ...(sessionToken === undefined ? {} : { sessionToken }) };
    return async () => identity;
  }
  return defaultProvider();
}

const THROTTLING = /throttl|toomanyrequests|requestlimitexceeded|slowdown|serviceunavailable|internalserver|limitexceeded/i;

interface AwsServiceError {
  name?: string;
  message?: string;
  $fault?: 'client' | 'server';
  $retryable?: { throttling?: boolean };
  $metadata?: { httpStatusCode?: number };
}

/**
 * An AWS SDK error as a failure: throttling, server faults, 429 and 5xx,
 * network faults and a successful answer cut short are transient; missing
 * credentials, access denied, a missing resource or a bad request are
 * permanent.
 */
export function awsFailure(target: string, error: unknown): ConnectorResult {
  const fault = networkFault(error)?.description;
  if (fault !== undefined) return transient(`${target}: ${fault}`);
  const serviceError = (typeof error === 'object' && error !== null ? error : {}) as AwsServiceError;
  const name = serviceError.name ?? 'Error';
  const message = `${target}: ${name}: ${serviceError.message ?? String(error)}`;
  const status = serviceError.$metadata?.httpStatusCode;
  if (name === 'SyntaxError' && status !== undefined && status >= 200 && status <= 299) {
    // An AWS API answers JSON on success, and over HTTP/2 the SDK takes a body cut short for a whole one, so JSON
    // that does not parse is nearly always a connection closed mid-answer: another attempt may get it whole.
    const reason = (serviceError.message ?? '').split('\n')[0];
    return transient(`${target}: the answer is not whole JSON, as when the connection is closed mid-answer (${reason})`);
  }
  if (name === 'CredentialsProviderError')
    return permanent(`${target}: no AWS credentials found (set AWS_PROFILE or AWS_ACCESS_KEY_ID, or run with a role)`);
  if (name === 'TimeoutError' || serviceError.$retryable !== undefined || serviceError.$fault === 'server' || THROTTLING.test(name))
    return transient(message);
  if (status !== undefined && isTransientStatus(status)) return transient(message);
  return permanent(message);
}
