import { terminalName } from '../../shared/report-render/terminal-text.js';
import { addUsages, type JudgeUsage } from '../../shared/scoring/judge-usage-tally.js';

/** What the progress line says beside the counts. */
export interface ProgressOptions {
  /** The judge cache is off (`--no-cache`): the line says `cache off` where it would count cache hits, which there cannot be. */
  readonly cacheOff?: boolean;
}

/**
 * The progress line on stderr: cases done of total, judge calls, cache hits
 * (or `cache off`), judgments shared in the run (once there are some),
 * retries, errors and an ETA. On a terminal it rewrites one line; otherwise
 * (CI logs, pipes) it prints a plain line at most every few seconds.
 */
export class Progress {
  private total = 0;
  private done = 0;
  private retried = 0;
  private waiting = 0;
  private started = Date.now();
  private lastPrinted = 0;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly usage: () => Record<string, JudgeUsage>,
    private readonly options: ProgressOptions = {},
  ) {}

  start(total: number): void {
    this.total = total;
    this.started = Date.now();
    this.render(true);
  }

  caseDone(): void {
    this.done++;
    this.render(false);
  }

  /** A case of a batch-judged run waits for answers from batch jobs. */
  caseWaiting(): void {
    this.waiting++;
    this.render(false);
  }

  /** A batch round's waiting cases were sent again: they are judged anew, and counted again as they end. */
  casesRequeued(count: number): void {
    this.waiting = Math.max(0, this.waiting - count);
    this.render(true);
  }

  /** A line of its own about the run's batch jobs, under the progress line; the provider's words in it are shown escaped, never obeyed by the terminal. */
  note(text: string): void {
    const shown = terminalName(text);
    this.stream.write(this.stream.isTTY ? `\r${shown}\u001b[K\n` : `${shown}\n`);
    this.render(true);
  }

  caseRetried(): void {
    this.retried++;
    this.render(false);
  }

  finish(): void {
    this.render(true);
    if (this.stream.isTTY) this.stream.write('\n');
  }

  private render(force: boolean): void {
    const now = Date.now();
    const interval = this.stream.isTTY ? 100 : 3_000;
    if (!force && now - this.lastPrinted < interval) return;
    this.lastPrinted = now;
    const usage = addUsages(Object.values(this.usage()));
    const elapsed = (now - this.started) / 1000;
    const eta = this.done === 0 || this.done >= this.total ? '-' : `${Math.ceil((elapsed / this.done) * (this.total - this.done))}s`;
    const cache = this.options.cacheOff === true ? 'cache off' : `cache hits ${usage.cache_hits}`;
    const line =
      `cases ${this.done}/${this.total} | judge calls ${usage.calls} | ${cache}${shared(usage.shared_in_run ?? 0)} | ` +
      `retries ${usage.retries}${rateLimited(usage.rate_limited ?? 0)} | errors ${usage.errors} | cases retried ${this.retried}` +
      `${this.waiting === 0 ? '' : ` | waiting for batch jobs ${this.waiting}`} | ETA ${eta}`;
    this.stream.write(this.stream.isTTY ? `\r${line}\u001b[K` : `${line}\n`);
  }
}

/** ` (N rate limited)` after the retries, once the judge server has refused any request as over its rate limit. */
function rateLimited(count: number): string {
  return count === 0 ? '' : ` (${count} rate limited)`;
}

/**
 * ` | shared in the run N`, once a judgment has been answered by an identical
 * request already in flight: no call of its own, and no cache hit, since the
 * cache may be off.
 */
function shared(count: number): string {
  return count === 0 ? '' : ` | shared in the run ${count}`;
}
