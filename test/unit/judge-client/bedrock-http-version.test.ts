import { NodeHttp2Handler, NodeHttpHandler } from '@smithy/node-http-handler';
import { describe, expect, it } from 'vitest';
import { classifyBedrockFailure, type BedrockWire } from '../../../shared/judge-client/bedrock-failure.js';
import { bedrockHttpVersion, httpMismatch, type BedrockHttpVersion } from '../../../shared/judge-client/bedrock-http-version.js';
import { bedrockRequestHandler } from '../../../shared/judge-client/bedrock-request-handler.js';

/**
 * Which HTTP the Bedrock clients speak, by the endpoint's scheme unless a
 * setting chooses, and how a server that speaks the other version is told
 * from any other failure. The errors are shaped as the AWS SDK threw them
 * against loopback servers (bedrock-judge-client.test.ts meets the cleartext
 * ones for real): nghttp2's "Protocol error" from an HTTP/1.1 server,
 * llhttp's "Parse Error" from an HTTP/2 one, and the TLS alert of a server
 * whose ALPN offers no h2, under the SDK's cancelled stream.
 */

/** An error as Node throws it: a message, a code, and the SDK's $metadata of an attempt with no answer. */
function nodeError(message: string, code: string, cause?: Error): Error {
  return Object.assign(new Error(message, cause === undefined ? {} : { cause }), { code, $metadata: { attempts: 1, totalRetryDelay: 0 } });
}

const PROTOCOL_ERROR = nodeError('Protocol error', 'ERR_HTTP2_ERROR');
const PARSE_ERROR = nodeError('Parse Error: Expected HTTP/, RTSP/ or ICE/', 'HPE_INVALID_CONSTANT');
const NO_H2_OVER_TLS = nodeError(
  'The pending stream has been canceled (caused by: error:0A000460:SSL routines:ssl3_read_bytes:tlsv1 alert no application protocol)',
  'ERR_HTTP2_STREAM_CANCEL',
  nodeError(
    'error:0A000460:SSL routines:ssl3_read_bytes:tlsv1 alert no application protocol',
    'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL',
  ),
);
const RESET = nodeError('socket hang up', 'ECONNRESET');

describe('bedrockHttpVersion', () => {
  it.each<[string | undefined, BedrockHttpVersion | undefined, BedrockHttpVersion]>([
    [undefined, undefined, '2'],
    ['https://vpce-0123.bedrock-runtime.us-east-1.vpce.amazonaws.com', undefined, '2'],
    ['http://localhost:4566', undefined, '1.1'],
    ['http://localhost:4566', '2', '2'],
    ['https://gateway.example', '1.1', '1.1'],
  ])('speaks to %s, with %s chosen, HTTP/%s', (endpoint, chosen, version) => {
    expect(bedrockHttpVersion(endpoint, chosen)).toBe(version);
  });
});

describe('bedrockRequestHandler', () => {
  it.each<[BedrockHttpVersion, typeof NodeHttpHandler | typeof NodeHttp2Handler, string]>([
    ['1.1', NodeHttpHandler, 'http/1.1'],
    ['2', NodeHttp2Handler, 'h2'],
  ])('is the SDK handler for HTTP/%s', (version, handler, protocol) => {
    const made = bedrockRequestHandler(version, 1_000);

    expect(made).toBeInstanceOf(handler);
    expect(made.metadata.handlerProtocol).toBe(protocol);
  });
});

describe('httpMismatch', () => {
  it.each<[string, Error, BedrockHttpVersion, string | undefined]>([
    ['HTTP/2 answered by an HTTP/1.1 server', PROTOCOL_ERROR, '2', 'Protocol error, ERR_HTTP2_ERROR'],
    ['HTTP/1.1 answered by an HTTP/2 server', PARSE_ERROR, '1.1', 'Parse Error: Expected HTTP/, RTSP/ or ICE/, HPE_INVALID_CONSTANT'],
    [
      'HTTP/2 to a TLS server without h2',
      NO_H2_OVER_TLS,
      '2',
      'the TLS server offers no h2 in ALPN, ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL',
    ],
    ['a parse error of HTTP/2, which has no such', PARSE_ERROR, '2', undefined],
    ['a protocol error of HTTP/1.1, which has no such', PROTOCOL_ERROR, '1.1', undefined],
    ['a reset connection', RESET, '1.1', undefined],
  ])('reads %s', (_case, error, spoken, seen) => {
    expect(httpMismatch(error, spoken)?.seen).toBe(seen);
  });
});

describe('classifyBedrockFailure of a protocol error', () => {
  const wire = (answered: boolean): BedrockWire => ({ url: 'https://gateway.example/', version: '2', chosen: false, answered });

  it('is fatal before the server ever answered, naming the https:// rule and the setting', () => {
    expect(classifyBedrockFailure(NO_H2_OVER_TLS, 'model m in us-east-1', wire(false))).toEqual({
      kind: 'fatal',
      error:
        'Amazon Bedrock at https://gateway.example/ did not speak HTTP/2 (the TLS server offers no h2 in ALPN, ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL): the judge client spoke HTTP/2, as it does to every https:// endpoint; set judge.bedrock.http_version: "1.1" if the server speaks HTTP/1.1 (a proxy, a gateway)',
    });
  });

  it('is a transient broken connection once the server has answered in that version', () => {
    expect(classifyBedrockFailure(PROTOCOL_ERROR, 'model m in us-east-1', wire(true))).toEqual({
      kind: 'failed',
      error: 'the connection to Amazon Bedrock failed: Protocol error, ERR_HTTP2_ERROR',
      transient: true,
    });
  });
});
