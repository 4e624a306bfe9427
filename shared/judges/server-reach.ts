import { networkFault } from './network-fault.js';

/**
 * Whether the judge server can be reached at all. A server that has never
 * sent this client an HTTP answer and refuses its connections (nothing
 * listens at that port) or whose name does not resolve is a wrong base URL
 * or a server that is not running: no retry within a run will change that,
 * so the first such failure ends every call in flight and every later call
 * fails at once, without a request, as with a refused key. A server that
 * has answered before and then drops is a passing fault: its calls are
 * retried and their cases tried again.
 */
export class ServerReach {
  private answered = false;
  private reason: string | undefined;

  /** `onUnreachable` stops the calls in flight; it is called once. */
  constructor(
    private readonly baseUrl: string | undefined,
    private readonly onUnreachable: (reason: string) => void,
  ) {}

  /** Why no call can reach the server, once that is known. */
  get unreachable(): string | undefined {
    return this.reason;
  }

  /** The server sent an HTTP answer (any status): it is there. */
  sawAnswer(): void {
    this.answered = true;
  }

  /** An attempt got no HTTP answer because of `error`. */
  sawFailure(error: unknown): void {
    if (this.answered || this.reason !== undefined) return;
    const fault = networkFault(error);
    if (fault === undefined || !fault.unreachable) return;
    this.reason = `cannot reach the judge server at ${shownUrl(this.baseUrl)}: ${fault.description}; check OPENAI_BASE_URL (or the config's judge base_url) and that the server is running`;
    this.onUnreachable(this.reason);
  }
}

/** The base URL without user info, query or fragment, where credentials could be. */
function shownUrl(baseUrl: string | undefined): string {
  const url = new URL(baseUrl ?? 'https://api.openai.com/v1');
  return `${url.protocol}//${url.host}${url.pathname}`;
}
