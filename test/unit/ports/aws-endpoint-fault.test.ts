import { describe, expect, it } from 'vitest';
import { AwsEndpointFault, awsEndpointFaultOf } from '../../../shared/ports/aws-endpoint-fault.js';

const ENDPOINT = 'http://127.0.0.1:4566';

/** A refused connection as the AWS SDK's node HTTP handler throws it. */
const refused = (): Error =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4566'), { code: 'ECONNREFUSED', $metadata: { attempts: 3 } });

/** The SDK's error for an answer it could not parse, with the answer hidden on it, as for a web page. */
function unreadable(status: number, contentType: string): Error {
  return Object.assign(
    new Error(
      '@aws-sdk XML parse error: mismatched tags <meta> and </head>.\n  Deserialization error: to see the raw response, inspect the hidden field {error}.$response on this object.',
    ),
    { $metadata: { httpStatusCode: status }, $response: { statusCode: status, headers: { 'content-type': contentType } } },
  );
}

describe('awsEndpointFaultOf', () => {
  it('says nothing answers at the endpoint, and to start the emulator there, for a refused connection', () => {
    // Act
    const fault = awsEndpointFaultOf(refused(), ENDPOINT);

    // Assess
    expect(fault).toBeInstanceOf(AwsEndpointFault);
    expect(fault?.message).toBe(
      'nothing answers at --aws-endpoint http://127.0.0.1:4566: the connection was refused (ECONNREFUSED); start the S3 and SQS service there (the emulator), or give the address it listens on',
    );
  });

  it('names AWS and the network for a client without an endpoint', () => {
    // Prepare: a name that does not resolve
    const error = Object.assign(new Error('getaddrinfo ENOTFOUND s3.example'), { code: 'ENOTFOUND' });

    // Act, Assess
    expect(awsEndpointFaultOf(error, undefined)?.message).toBe(
      'nothing answers at AWS: the host name did not resolve (ENOTFOUND); check the network, a proxy or firewall on the way, and the region',
    );
  });

  it('says the server is no S3 or SQS service when the SDK could not read its answer', () => {
    // Act
    const fault = awsEndpointFaultOf(unreadable(404, 'text/html; charset=utf-8'), ENDPOINT);

    // Assess
    expect(fault?.message).toBe(
      "the server at --aws-endpoint http://127.0.0.1:4566 is no S3 or SQS service: it answered HTTP 404 with text/html, which the AWS SDK cannot read; give the address of the S3 and SQS endpoint (the emulator's port)",
    );
  });

  it('says the server is no SQS service when the call that failed was to SQS: an S3 alone (MinIO) answers the bucket, not the queues', () => {
    // Act
    const fault = awsEndpointFaultOf(unreadable(400, 'application/xml'), ENDPOINT, 'SQS');

    // Assess
    expect(fault?.message).toBe(
      'the server at --aws-endpoint http://127.0.0.1:4566 is no SQS service: its answer to an SQS call, HTTP 400 with application/xml, ' +
        'is none the AWS SDK can read; assay needs S3 and SQS at that one address (an emulator of both)',
    );
  });

  it.each([
    [
      'a missing key',
      Object.assign(new Error('The specified key does not exist.'), { name: 'NoSuchKey', $metadata: { httpStatusCode: 404 } }),
    ],
    ['a refused grant', Object.assign(new Error('Access Denied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } })],
    ['a reset connection, which another try may pass', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
    ['a bug', new TypeError('x is undefined')],
  ])('leaves %s alone', (_name, error) => {
    expect(awsEndpointFaultOf(error, ENDPOINT)).toBeUndefined();
  });

  it('gives a fault back as it is, so a message is never wrapped twice', () => {
    // Prepare
    const fault = awsEndpointFaultOf(refused(), ENDPOINT);

    // Act, Assess
    expect(awsEndpointFaultOf(fault, 'http://elsewhere:1')).toBe(fault);
  });
});
