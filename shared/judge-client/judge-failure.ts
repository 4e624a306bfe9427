import OpenAI from 'openai';
import { innermostCause, networkFault } from '../network/network-fault.js';
import type { SamplingParameter } from '../judge-answers/request-parameters.js';
import { scrubSecrets } from '../secrets/scrub-secrets.js';

/**
 * What a failed judge request means, read from what the server said (status,
 * the error's `param`, `code` and `type`, and its message), so that each kind
 * gets its own remedy: a refused output mode steps down the mode ladder, a
 * refused sampling parameter is dropped, a spent quota or a refused key stops
 * every later call, and anything else about one request (a content filter, a
 * prompt too long, an unknown model) fails that request only. A network
 * fault (a reset or refused connection, an answer cut off mid-body, a name
 * that does not resolve) is a transient failure that names what happened,
 * whether the SDK wrapped it or not; any other error that is not the
 * server's answer is a bug, and is thrown.
 */
export type RequestFailure =
  /** The server does not support the output mode sent (response_format, json_schema, json_object, tools). */
  | { readonly kind: 'mode-refused' }
  /** The model rejects a sampling parameter: sent again without it (temperature) or under its other name (max_tokens). */
  | { readonly kind: 'parameter-refused'; readonly parameter: SamplingParameter }
  /** No later call can succeed either (a refused key, a spent quota): the client fails them without a request. */
  | { readonly kind: 'fatal'; readonly error: string }
  | { readonly kind: 'failed'; readonly error: string; readonly transient: boolean };

/** Statuses of a request the server found invalid: 400 from OpenAI, 422 from servers that validate with a schema library. */
const VALIDATION_STATUSES = new Set([400, 422]);

/**
 * `credentials` names where the key and the server are set, for the message
 * of a refused key: OpenAI's variables, or Azure OpenAI's.
 */
export function classifyFailure(error: unknown, apiKey: string, credentials = 'OPENAI_API_KEY and OPENAI_BASE_URL'): RequestFailure {
  const scrub = (text: string): string => scrubSecrets(text, [apiKey]);
  if (error instanceof OpenAI.APIConnectionTimeoutError) return { kind: 'failed', error: 'the judge call timed out', transient: true };
  const fault = error instanceof OpenAI.APIError && !(error instanceof OpenAI.APIConnectionError) ? undefined : networkFault(error);
  if (fault !== undefined) {
    const what = fault.unreachable ? 'cannot reach the judge server' : 'the connection to the judge server failed';
    return { kind: 'failed', error: scrub(`${what}: ${fault.description}`), transient: true };
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return {
      kind: 'failed',
      error: scrub(`the connection to the judge server failed: ${innermostCause(error) ?? error.message}`),
      transient: true,
    };
  }
  if (!(error instanceof OpenAI.APIError)) throw error;
  const status = error.status;
  const said = [error.param, error.code, error.type, error.message].filter((part) => typeof part === 'string').join(' ');
  if (status === 401 || status === 403) {
    const text = scrub(
      `the judge server refused the credentials (HTTP ${status}: ${error.message.replace(/^\d{3} /, '')}); check ${credentials}`,
    );
    // Only a 401 says the key itself is wrong: a 403 may be about one request (a firewall rule, a content policy).
    return status === 401 ? { kind: 'fatal', error: text } : { kind: 'failed', error: text, transient: false };
  }
  if (isSpentQuota(error)) {
    return {
      kind: 'fatal',
      error: scrub(
        `the judge account has no quota left (HTTP ${status}: ${error.message.replace(/^\d{3} /, '')}); check the billing of the judge account`,
      ),
    };
  }
  if (status !== undefined && VALIDATION_STATUSES.has(status)) return classifyInvalidRequest(error, said, scrub);
  // Azure OpenAI's deployment is its model: a wrong name (or one just made, not serving yet) answers every call alike.
  if (status === 404 && /DeploymentNotFound/.test(said)) {
    return {
      kind: 'fatal',
      error: scrub(
        `Azure OpenAI has no such deployment (HTTP 404: ${error.message.replace(/^\d{3} /, '')}); check judge.azure.deployment and ` +
          'judge.azure.endpoint (a deployment made minutes ago may not answer yet)',
      ),
    };
  }
  // A 404 that is not about the model is most often a base URL short of the API's root: /chat/completions asked of the server's root.
  if (status === 404 && !/model/i.test(said)) {
    const message = error.message.replace(/^\d{3} /, '');
    return {
      kind: 'failed',
      error: scrub(
        `judge server answered 404: ${message}; check the base URL (${credentials}): it is the API's root, which for OpenAI and most ` +
          'OpenAI-compatible servers ends in /v1 (https://api.openai.com/v1, http://localhost:8000/v1)',
      ),
      transient: false,
    };
  }
  // A model the server does not have (a typo, a model not pulled into Ollama): every call of the judge gets the same answer,
  // so the run stops at the first, as for a refused key, rather than ask for it once a judgment.
  if (status === 404) {
    return {
      kind: 'fatal',
      error: scrub(
        `the judge server has no such model (HTTP 404: ${error.message.replace(/^\d{3} /, '')}); check the judge's model ` +
          '(ASSAY_JUDGE_MODEL, or judge.model in the config): the server lists its models at GET /models under the base URL',
      ),
    };
  }
  if (status !== undefined && status >= 300 && status < 400) return redirected(error, status, credentials, scrub);
  const transient = status === undefined || status === 408 || status === 409 || status === 429 || status >= 500;
  return { kind: 'failed', error: scrub(`judge server answered ${status ?? 'an error'}: ${error.message}`), transient };
}

/**
 * A redirect, which the judge client does not follow, so that its key is sent
 * to no other address: most often an http:// base URL whose server sends
 * every request to https://, or a moved API. The message names where to.
 */
function redirected(
  error: InstanceType<typeof OpenAI.APIError>,
  status: number,
  credentials: string,
  scrub: (text: string) => string,
): RequestFailure {
  const location = error.headers?.get('location') ?? undefined;
  const to = location === undefined || location === '' ? 'another address it does not name' : location;
  const base = location?.replace(/\/chat\/completions\/?(\?.*)?$/, '');
  const fix =
    base !== undefined && base !== location && /^https?:\/\//.test(base)
      ? `, such as ${base}`
      : ' (its API root, without /chat/completions)';
  return {
    kind: 'failed',
    error: scrub(
      `the judge server redirects the request (HTTP ${status}) to ${to}; the judge client follows no redirect, so that its key goes to no ` +
        `other address: give the address it redirects to as the base URL (${credentials})${fix}`,
    ),
    transient: false,
  };
}

/** `insufficient_quota` is a 429 that no wait cures: the account's credit or budget is spent. */
export function isSpentQuota(error: { readonly code?: unknown; readonly type?: unknown }): boolean {
  return error.code === 'insufficient_quota' || error.type === 'insufficient_quota';
}

function classifyInvalidRequest(
  error: InstanceType<typeof OpenAI.APIError>,
  said: string,
  scrub: (text: string) => string,
): RequestFailure {
  const failed = (text: string): RequestFailure => ({ kind: 'failed', error: scrub(text), transient: false });
  const status = error.status;
  // A content filter or policy refusal concerns this prompt only: the mode and the parameters are fine.
  if (/content[_ ]?filter|content (management )?polic|usage polic|responsibleai|flagged|safety system/i.test(said)) {
    return failed(`the judge server's content filter refused this prompt (HTTP ${status}: ${error.message.replace(/^\d{3} /, '')})`);
  }
  if (/context length|context window|maximum context|too long|too many tokens/i.test(said)) {
    return failed(`the prompt is too long for the judge model (HTTP ${status}: ${error.message.replace(/^\d{3} /, '')})`);
  }
  const parameter = refusedParameter(error.param, said);
  if (parameter !== undefined) return { kind: 'parameter-refused', parameter };
  if (/response_format|json_schema|json_object|structured output|\btools?\b|tool_choice|function[_ ]call/i.test(said))
    return { kind: 'mode-refused' };
  return failed(`judge server answered ${status}: ${error.message.replace(/^\d{3} /, '')}`);
}

/** A sampling parameter the model does not take: named in `param`, or in an "unsupported" message. */
function refusedParameter(param: string | null | undefined, said: string): SamplingParameter | undefined {
  const unsupported = /unsupported|not supported|does not support|only the default|not allowed|invalid/i.test(said);
  for (const name of ['max_completion_tokens', 'max_tokens', 'temperature'] as const) {
    const named = param === name || new RegExp(`['"\`]?\\b${name}\\b['"\`]?`).test(said);
    // "Use 'max_completion_tokens' instead" names the replacement, not the refused one.
    if (named && unsupported && !(name === 'max_completion_tokens' && param !== name && /max_tokens/.test(said))) return name;
  }
  return undefined;
}
