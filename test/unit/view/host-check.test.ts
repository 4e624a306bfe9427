import { describe, expect, it } from 'vitest';
import { allowedHostName, exposureWarning, hostCheck, isLoopbackAddress, isWildcardAddress } from '../../../shared/view/host-check.js';

const LAN = [
  { address: '127.0.0.1', family: 'IPv4' },
  { address: '::1', family: 'IPv6' },
  { address: '192.168.1.20', family: 'IPv4' },
  { address: 'fd00::2', family: 'IPv6' },
];

describe('addresses', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])('%s is loopback', (address) => {
    expect(isLoopbackAddress(address)).toBe(true);
    expect(isWildcardAddress(address)).toBe(false);
  });

  it.each(['0.0.0.0', '::', '::0', '0:0:0:0:0:0:0:0', '0000:0000::0000'])('%s is a wildcard, not loopback', (address) => {
    expect(isWildcardAddress(address)).toBe(true);
    expect(isLoopbackAddress(address)).toBe(false);
  });

  it.each(['192.168.1.20', 'fd00::2', '10.0.0.1', '::ffff:10.0.0.1'])('%s is neither', (address) => {
    expect(isLoopbackAddress(address)).toBe(false);
    expect(isWildcardAddress(address)).toBe(false);
  });
});

describe('--allow-host names', () => {
  it.each([
    ['view.example.com', 'view.example.com'],
    ['View.Example.COM', 'view.example.com'],
    ['192.168.1.20', '192.168.1.20'],
    ['fe80::1', '[fe80::1]'],
    ['[FD00:0:0::2]', '[fd00::2]'],
    ['bücher.example', 'xn--bcher-kva.example'],
  ])('%s is answered as %s', (given, name) => {
    expect(allowedHostName(given)).toEqual({ ok: true, value: name });
  });

  it.each(['view.example.com:8750', 'http://view.example.com', 'a b', '', 'user@host', 'host/path', 'bad\\name'])('refuses %j', (given) => {
    expect(allowedHostName(given)).toMatchObject({ ok: false, error: expect.stringContaining('not a host name') });
  });
});

describe('the Host check', () => {
  it('answers loopback names and the address listened on, with the port, and refuses every other name', () => {
    const check = hostCheck({ address: '127.0.0.1', family: 'IPv4', port: 8750 }, { listenedOn: '127.0.0.1' });

    for (const host of ['127.0.0.1:8750', 'localhost:8750', 'LOCALHOST:8750', '[::1]:8750']) expect(check.allows(host), host).toBe(true);
    for (const host of [
      undefined,
      '',
      'evil.example:8750',
      'evil.example',
      '127.0.0.1',
      '127.0.0.1:80',
      'localhost.:8750',
      '127.0.0.1.evil.example:8750',
      '127.0.0.1:8750:8750',
      '[::1]',
      '0.0.0.0:8750',
    ]) {
      expect(check.allows(host), String(host)).toBe(false);
    }
  });

  it.each([80, 443])('answers a Host without a port on port %i, as browsers send it', (port) => {
    const check = hostCheck({ address: '127.0.0.1', family: 'IPv4', port }, { listenedOn: '127.0.0.1' });

    expect(check.allows('127.0.0.1')).toBe(true);
    expect(check.allows('localhost')).toBe(true);
    expect(check.allows(`127.0.0.1:${port}`)).toBe(true);
    expect(check.allows('evil.example')).toBe(false);
  });

  it('keeps checking on a wildcard bind: the machine’s addresses and the allowed names, nothing else', () => {
    const check = hostCheck(
      { address: '0.0.0.0', family: 'IPv4', port: 8750 },
      { listenedOn: '0', extra: ['view.example.com'], interfaces: LAN },
    );

    expect(check.names).toEqual(['127.0.0.1', 'localhost', '[::1]', '192.168.1.20', '[fd00::2]', 'view.example.com']);
    for (const host of ['192.168.1.20:8750', '[fd00::2]:8750', 'view.example.com:8750', '127.0.0.1:8750'])
      expect(check.allows(host), host).toBe(true);
    for (const host of ['evil.example:8750', '0:8750', '0.0.0.0:8750', 'view.example.com:9999'])
      expect(check.allows(host), host).toBe(false);
  });

  it('answers the name it was asked to listen on and the address it resolved to', () => {
    const check = hostCheck({ address: '192.168.1.20', family: 'IPv4', port: 8750 }, { listenedOn: 'myhost.lan' });

    expect(check.names).toEqual(['127.0.0.1', 'localhost', '[::1]', 'myhost.lan', '192.168.1.20']);
  });
});

describe('the warning of a bind beyond loopback', () => {
  it('says nothing on loopback', () => {
    const bound = { address: '127.0.0.1', family: 'IPv4', port: 8750 };

    expect(exposureWarning(bound, hostCheck(bound, { listenedOn: '127.0.0.1' }), 'store /data/.assay')).toBeUndefined();
  });

  it.each([
    [{ address: '0.0.0.0', family: 'IPv4', port: 8750 }, 'listening on 0.0.0.0, every network interface of this machine, port 8750'],
    [{ address: '::', family: 'IPv6', port: 8750 }, 'listening on [::], every network interface of this machine, port 8750'],
    [{ address: '192.168.1.20', family: 'IPv4', port: 8750 }, 'listening on 192.168.1.20, an address other machines can reach, port 8750'],
  ])('names where it listens, what is exposed and the names answered: %o', (bound, where) => {
    const warning = exposureWarning(bound, hostCheck(bound, { listenedOn: bound.address, interfaces: LAN }), 'store /data/.assay');

    expect(warning).toContain(where);
    expect(warning).toContain('anyone who can connect to it reads the whole store /data/.assay');
    expect(warning).toContain('with no sign-in');
    expect(warning).toContain('It answers requests for 127.0.0.1, localhost, [::1]');
    expect(warning).toContain('--allow-host NAME');
  });
});
