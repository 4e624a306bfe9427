import { describe, expect, it } from 'vitest';
import { networkFault } from '../../../shared/network/network-fault.js';

/** An error as Node and undici raise it: a code on the error or on its cause. */
function systemError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('networkFault', () => {
  it.each([
    [
      'a host name that does not resolve, as fetch reports it',
      new TypeError('fetch failed', { cause: systemError('getaddrinfo ENOTFOUND search.internal', 'ENOTFOUND') }),
      'the host name did not resolve (ENOTFOUND)',
    ],
    [
      'a DNS server that did not answer',
      new TypeError('fetch failed', { cause: systemError('getaddrinfo EAI_AGAIN search.internal', 'EAI_AGAIN') }),
      'the host name could not be resolved for now (EAI_AGAIN)',
    ],
    [
      "a socket hang-up, as Node's http client reports it",
      systemError('socket hang up', 'ECONNRESET'),
      'the connection was reset (ECONNRESET)',
    ],
    [
      'a body cut short, two causes deep',
      new TypeError('terminated', { cause: new Error('wrapped', { cause: systemError('other side closed', 'UND_ERR_SOCKET') }) }),
      'the server closed the connection (UND_ERR_SOCKET)',
    ],
    [
      'an HTTP/2 stream cancelled because its session could not connect',
      Object.assign(
        new Error('The pending stream has been canceled', { cause: systemError('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED') }),
        { code: 'ERR_HTTP2_STREAM_CANCEL' },
      ),
      'the connection was refused (ECONNREFUSED)',
    ],
    [
      'an https:// address whose server speaks plain HTTP, as the TLS socket reports it',
      new TypeError('fetch failed', {
        cause: systemError('write EPROTO 801CE262E77F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number', 'EPROTO'),
      }),
      'the TLS handshake failed, as when an https:// address names a server that speaks plain HTTP (EPROTO)',
    ],
    [
      'a self-signed certificate',
      new TypeError('fetch failed', { cause: systemError('self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT') }),
      "the server's TLS certificate is not trusted: a self-signed or private CA's certificate needs that CA in NODE_EXTRA_CA_CERTS, an expired one renewing, one for another name the address it names (DEPTH_ZERO_SELF_SIGNED_CERT)",
    ],
  ])('names %s', (_described, error, expected) => {
    expect(networkFault(error)?.description).toBe(expected);
  });

  it.each([
    ['a refused connection', 'ECONNREFUSED', true],
    ['a host name that does not resolve', 'ENOTFOUND', true],
    ['a connection that did not open within the connect timeout', 'UND_ERR_CONNECT_TIMEOUT', true],
    ['a DNS server that did not answer, which may on the next try', 'EAI_AGAIN', false],
    ['a TLS handshake with a server that speaks plain HTTP', 'EPROTO', true],
    ['a self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT', true],
    ['a certificate for another name', 'ERR_TLS_CERT_ALTNAME_INVALID', true],
    ['a reset connection', 'ECONNRESET', false],
    ['a connection that timed out once open', 'ETIMEDOUT', false],
  ])('takes %s for a server that cannot be reached: %s, %s', (_described, code, unreachable) => {
    const fault = networkFault(new TypeError('fetch failed', { cause: systemError('failed', code) }));
    expect(fault).toMatchObject({ code, unreachable });
  });

  it.each([
    ['a bug', new TypeError('Cannot read properties of undefined')],
    ['an error with an unrelated code', systemError('no such file', 'ENOENT')],
    ['something that is not an error', 'fetch failed'],
  ])('finds no network fault in %s', (_described, error) => {
    expect(networkFault(error)).toBeUndefined();
  });
});
