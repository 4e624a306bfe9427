import { describe, expect, it } from 'vitest';
import { awsCall } from '../../../shared/batch-providers/aws-batch-errors.js';
import { BatchProviderError } from '../../../shared/batch-providers/batch-provider.js';

/** How a failed call of the Bedrock batch adapter is read: whether the provider could be reached at all. */
async function failureOf(error: Error): Promise<BatchProviderError> {
  try {
    await awsCall(() => Promise.reject(error));
  } catch (thrown) {
    if (thrown instanceof BatchProviderError) return thrown;
    throw thrown;
  }
  throw new Error('expected the call to fail');
}

const systemError = (message: string, code: string): Error => Object.assign(new Error(message), { code });

describe('awsCall', () => {
  it.each([
    ['a refused connection', systemError('connect ECONNREFUSED 127.0.0.1:4566', 'ECONNREFUSED')],
    ['a host name that does not resolve', systemError('getaddrinfo ENOTFOUND bedrock.invalid', 'ENOTFOUND')],
  ])('takes %s for a provider that cannot be reached, worth another look', async (_described, error) => {
    const failure = await failureOf(error);
    expect(failure).toMatchObject({ transient: true, cannotReach: true });
    expect(failure.message).toBe(`no answer (Error): ${error.message}`);
  });

  it('takes a reset connection and throttling for passing faults of a provider that is there', async () => {
    const reset = await failureOf(systemError('read ECONNRESET', 'ECONNRESET'));
    const throttled = await failureOf(
      Object.assign(new Error('Too many requests'), { name: 'ThrottlingException', $metadata: { httpStatusCode: 429 } }),
    );
    expect(reset).toMatchObject({ transient: true, cannotReach: false });
    expect(throttled).toMatchObject({ transient: true, cannotReach: false, message: 'HTTP 429 ThrottlingException: Too many requests' });
  });
});
