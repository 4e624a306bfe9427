import { chooseProvider, judgeEnvironmentOf, type JudgeProvider } from '../../shared/judge-client/judge-provider.js';

/** The variables other tools take a proxy from, in the order curl looks. */
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy'] as const;

/**
 * What `assay run` says when the environment names a proxy: assay uses none
 * (Node's http, the openai SDK and the AWS SDK take none from the
 * environment), so on a network that lets only the proxy out, every judge
 * call would fail as unreachable with no word of the proxy. Undefined when
 * no proxy is set, or NO_PROXY names the judge's host (as curl reads it:
 * host names and domain suffixes, `*` for all).
 */
export function proxyNotice(environment: Readonly<Record<string, string | undefined>>, judgeHost: string): string | undefined {
  const variable = PROXY_VARIABLES.find((name) => (environment[name] ?? '').trim() !== '');
  if (variable === undefined || noProxyCovers(environment.NO_PROXY ?? environment.no_proxy ?? '', judgeHost)) return undefined;
  return (
    `assay: ${variable} is set, but assay uses no proxy: it calls the judge server at ${judgeHost} directly (engines and AWS too); ` +
    'where the network lets only the proxy out, those calls fail as unreachable'
  );
}

/** The notice for a run whose judge the config's judge section and the environment choose; none where they choose no provider. */
export function judgeProxyNotice(
  judge: Parameters<typeof chooseProvider>[0],
  environment: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const choice = chooseProvider(judge, judgeEnvironmentOf(environment));
  return choice.ok ? proxyNotice(environment, judgeHostOf(choice.provider)) : undefined;
}

/** The judge server's host name, as the provider's settings name it. */
export function judgeHostOf(provider: JudgeProvider): string {
  if (provider.kind === 'openai') return new URL(provider.baseUrl ?? 'https://api.openai.com/v1').hostname;
  if (provider.kind === 'azure') return new URL(provider.azure.endpoint).hostname;
  return new URL(provider.endpoint ?? `https://bedrock-runtime.${provider.region}.amazonaws.com`).hostname;
}

function noProxyCovers(list: string, host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  return list.split(',').some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (entry === '*') return true;
    const bare = entry.replace(/^\*?\./, '').replace(/:\d+$/, '');
    return bare !== '' && (name === bare || name.endsWith(`.${bare}`));
  });
}
