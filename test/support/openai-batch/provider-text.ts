/**
 * Text the batch test server writes for a client to read (error messages,
 * a batch's status) made hostile on demand: the caller's own key echoed
 * back, as some gateways do, so a client that logs or stores provider text
 * as it came leaks it; and control or bidirectional characters a terminal
 * or a log viewer would act on.
 */
export interface ProviderTextFaults {
  /**
   * The key of the request (its `Authorization: Bearer` token, or Azure's `api-key`) is written
   * verbatim into: every error-file line's message, the lines answered 401 (unauthorizedLines),
   * a failed batch's `errors.data[].message`, errorBodyUnder200 bodies, and the default bodies of
   * httpFaults. A batch's lines echo the key its `POST batches` was sent with.
   */
  readonly echoKey?: boolean;
  /** Appended to every error message those places carry (e.g. `"\u001b]0;pwned\u0007"`). */
  readonly errorMessageSuffix?: string;
  /** Appended to a batch's `status` while it is in_progress (e.g. `"\u202e"`); every other status is sent as it is, so a client can still finish. */
  readonly statusSuffix?: string;
}

/** The message as the plan has the server write it. */
export function errorText(message: string, apiKey: string | undefined, faults: ProviderTextFaults): string {
  const echoed = faults.echoKey === true && apiKey !== undefined ? `${message} (API key: ${apiKey})` : message;
  return `${echoed}${faults.errorMessageSuffix ?? ''}`;
}

/** The key a request was sent with: Azure's `api-key`, else the Bearer token. */
export function requestKey(headers: {
  readonly authorization?: string | undefined;
  readonly 'api-key'?: string | string[] | undefined;
}): string | undefined {
  const azure = headers['api-key'];
  if (typeof azure === 'string') return azure;
  return /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
}
