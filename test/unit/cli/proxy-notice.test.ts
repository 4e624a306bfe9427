import { describe, expect, it } from 'vitest';
import { judgeHostOf, proxyNotice } from '../../../cli/run/proxy-notice.js';

const NOTICE =
  'assay: HTTPS_PROXY is set, but assay uses no proxy: it calls the judge server at api.openai.com directly (engines and AWS too); ' +
  'where the network lets only the proxy out, those calls fail as unreachable';

describe('proxyNotice', () => {
  it('says that a proxy set in the environment is not used, naming the variable and the judge host', () => {
    expect(proxyNotice({ HTTPS_PROXY: 'http://proxy.corp:3128' }, 'api.openai.com')).toBe(NOTICE);
    expect(proxyNotice({ all_proxy: 'socks5://proxy.corp:1080' }, 'api.openai.com')).toMatch(
      /^assay: all_proxy is set, but assay uses no proxy/,
    );
  });

  it('says nothing without a proxy, or with an empty one', () => {
    expect(proxyNotice({}, 'api.openai.com')).toBeUndefined();
    expect(proxyNotice({ HTTPS_PROXY: '  ' }, 'api.openai.com')).toBeUndefined();
  });

  it.each([
    ['the host itself', 'api.openai.com'],
    ['a domain suffix', '.openai.com'],
    ['a domain without its dot', 'openai.com'],
    ['a wildcard domain', '*.openai.com'],
    ['every host', '*'],
    ['the host with a port', 'api.openai.com:443'],
    ['one entry of a list, in capitals', 'localhost, API.OPENAI.COM'],
  ])('says nothing where NO_PROXY names %s', (_name, noProxy) => {
    expect(proxyNotice({ HTTPS_PROXY: 'http://proxy.corp:3128', NO_PROXY: noProxy }, 'api.openai.com')).toBeUndefined();
  });

  it('still speaks where NO_PROXY names other hosts, or a name the host only ends with', () => {
    expect(proxyNotice({ HTTPS_PROXY: 'http://proxy.corp:3128', no_proxy: 'localhost,127.0.0.1' }, 'api.openai.com')).toBe(NOTICE);
    expect(proxyNotice({ HTTPS_PROXY: 'http://proxy.corp:3128', NO_PROXY: 'penai.com' }, 'api.openai.com')).toBe(NOTICE);
  });
});

describe('judgeHostOf', () => {
  it("names each provider's host: OpenAI's default or base URL, Azure's endpoint, Bedrock's regional or given endpoint", () => {
    expect(judgeHostOf({ kind: 'openai', baseUrl: undefined, apiKey: 'k' })).toBe('api.openai.com');
    expect(judgeHostOf({ kind: 'openai', baseUrl: 'http://localhost:11434/v1', apiKey: 'k' })).toBe('localhost');
    expect(
      judgeHostOf({ kind: 'azure', azure: { endpoint: 'https://my.openai.azure.com', deployment: 'd', apiVersion: 'v' }, apiKey: 'k' }),
    ).toBe('my.openai.azure.com');
    expect(judgeHostOf({ kind: 'bedrock', region: 'eu-west-1', endpoint: undefined })).toBe('bedrock-runtime.eu-west-1.amazonaws.com');
  });
});
