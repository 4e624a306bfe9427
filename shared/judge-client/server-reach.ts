import { networkFault } from '../network/network-fault.js';
import { HeldVerdict, SilenceWatch, UNREACHABLE_HOLD_MS } from '../network/silence-watch.js';

/**
 * Whether the judge server can be reached at all. A server that has never
 * sent this client an HTTP answer and refuses its connections (nothing
 * listens at that port) or whose name does not resolve is a wrong base URL
 * or a server that is not running: retrying each call would only spend the
 * run's time, so the first such failure ends every call in flight, and for
 * UNREACHABLE_HOLD_MS (shared/network/silence-watch.ts) every later call fails at once, without a request.
 *
 * The failures stay transient: the cases go back through the queue, which on
 * AWS tries them again minutes later, when a gateway that was restarting may
 * be back; after the hold the next call asks the server again. On one
 * machine the queue's few quick redeliveries all fall within the hold, so a
 * run against a wrong URL ends in seconds with every case failed and the
 * reason named. A server that has answered before and then drops is a
 * passing fault: its calls are retried as usual.
 *
 * A server that accepts connections but never answers (another service on
 * that port, a proxy that hangs) is found the same way once two attempts in
 * a row got nothing: one timed out, and one sent after that timed out too or
 * was cut by its judgment's deadline. Without that, each of a run's
 * judgments would wait out its deadline in silence, and a run of a few
 * hundred judgments would take hours to fail. A server still loading its
 * model gets the second attempt to answer in. So is one that closes every
 * connection before answering (an https-only server asked over http://).
 */

/** The faults of a connection the server closed (or reset) before it answered anything. */
const CLOSED_BEFORE_ANSWERING: ReadonlySet<string> = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/** The server as a message names it: its URL (without user info or query), the setting that gives that URL, and what should answer there. */
export interface ReachTarget {
  readonly url: string;
  readonly setting: string;
  /** e.g. `an OpenAI-compatible server`. */
  readonly server: string;
}

/** An OpenAI-compatible server at `baseUrl` (undefined: the OpenAI API). */
export function openAiTarget(baseUrl: string | undefined): ReachTarget {
  return {
    url: shownUrl(baseUrl ?? 'https://api.openai.com/v1'),
    setting: "OPENAI_BASE_URL (or the config's judge base_url)",
    server: 'an OpenAI-compatible server',
  };
}

export class ServerReach {
  private answered = false;
  private readonly verdict: HeldVerdict;
  private readonly silence: SilenceWatch;
  /** The same rule for connections closed before any answer: a server that speaks only TLS hangs up on plain HTTP. */
  private readonly hangUps: SilenceWatch;

  /** `onUnreachable` stops the calls in flight; it is called once a verdict. */
  constructor(
    private readonly target: ReachTarget,
    private readonly onUnreachable: (reason: string) => void,
    now: () => number = Date.now,
    holdMs = UNREACHABLE_HOLD_MS,
  ) {
    this.verdict = new HeldVerdict(now, holdMs);
    this.silence = new SilenceWatch(now);
    this.hangUps = new SilenceWatch(now);
  }

  /** Why no call can reach the server now, while the last verdict holds. */
  get unreachable(): string | undefined {
    return this.verdict.current;
  }

  /** The server sent an HTTP answer (any status): it is there. */
  sawAnswer(): void {
    this.answered = true;
    this.verdict.clear();
    this.silence.heardFrom();
    this.hangUps.heardFrom();
  }

  /** An attempt (sent at `startedAt`, when the caller knows) got no HTTP answer because of `error`. */
  sawFailure(error: unknown, startedAt?: number): void {
    if (this.answered || this.unreachable !== undefined) return;
    const fault = networkFault(error);
    if (fault === undefined) return;
    if (fault.unreachable) {
      this.found(
        `cannot reach the judge server at ${this.target.url}: ${fault.description}; check ${this.target.setting} and that the server is running`,
      );
      return;
    }
    if (startedAt === undefined || !CLOSED_BEFORE_ANSWERING.has(fault.code) || !this.hangUps.noAnswer(startedAt)) return;
    this.found(
      `the judge server at ${this.target.url} closed the connection before answering, at an attempt and at the attempt after it ` +
        `(${fault.description}); check that ${this.target.setting} names ${this.target.server}: a server that speaks only https:// ` +
        'closes an http:// request so',
    );
  }

  /**
   * An attempt sent at `startedAt` got no HTTP answer before it timed out
   * (`timeoutMs`) or its judgment's deadline cut it.
   */
  sawSilence(startedAt: number, timeoutMs: number): void {
    if (this.unreachable !== undefined || !this.silence.noAnswer(startedAt)) return;
    this.found(
      `the judge server at ${this.target.url} sent no answer: an attempt timed out after ${timeoutMs} ms (judge.timeout_ms), ` +
        `and the attempt after it got no answer either; check that ${this.target.setting} names ${this.target.server}, ` +
        'or raise judge.timeout_ms for one that takes longer to start',
    );
  }

  private found(reason: string): void {
    this.verdict.hold(reason);
    this.onUnreachable(reason);
  }
}

/** A URL without user info, query or fragment, where credentials could be. */
export function shownUrl(address: string): string {
  const url = new URL(address);
  return `${url.protocol}//${url.host}${url.pathname}`;
}
