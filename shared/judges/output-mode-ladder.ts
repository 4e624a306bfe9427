import { OUTPUT_MODES, type OutputMode } from './output-modes.js';

/**
 * The output mode a judge client uses, shared by all its calls. It only ever
 * steps down, never back up, whatever order late answers arrive in.
 *
 * Until a mode has been seen to work, one call at a time tries it (the
 * probe); calls that arrive meanwhile wait for the probe's outcome instead of
 * each sending a request the server may refuse. So 20 concurrent calls to a
 * server that refuses json_schema make 21 requests, not 40.
 */

/** How a probe ended: the mode worked, was refused, was ignored (prose), or nothing was learnt (a failure of another kind). */
export type ProbeOutcome = 'worked' | 'refused' | 'ignored' | 'undecided';

export interface ModeClaim {
  readonly mode: OutputMode;
  /** Records what the request in this mode showed; a claim is settled once, later calls are ignored. */
  settle(outcome: ProbeOutcome): void;
}

export class OutputModeLadder {
  private index = 0;
  private confirmed = false;
  private probe: Promise<void> | undefined;
  private endProbe: (() => void) | undefined;
  private ignoredAnswers = 0;

  /**
   * `ignoredThreshold`: prose answers to a mode, over all calls, after which
   * the client stops asking for it. `modes`: the rungs a transport has, most
   * to least strict (Bedrock's Converse has no response_format: tool, text).
   */
  constructor(
    private readonly ignoredThreshold = 2,
    private readonly modes: readonly OutputMode[] = OUTPUT_MODES,
  ) {}

  get mode(): OutputMode {
    return this.modes[this.index] ?? 'text';
  }

  /**
   * The mode to send now; waits while another call probes an unconfirmed
   * mode. `floor` is a mode this call must not go above (one step below a
   * mode it found ignored): while the shared mode is higher, the call uses
   * the floor on its own, without probing. Rejects when `signal` aborts first.
   */
  async claim(signal: AbortSignal, floor?: OutputMode): Promise<ModeClaim> {
    for (;;) {
      signal.throwIfAborted();
      if (floor !== undefined && this.modes.indexOf(floor) > this.index) return this.claimOf(floor, false);
      if (this.confirmed) return this.claimOf(this.mode, false);
      if (this.probe === undefined) {
        this.probe = new Promise<void>((resolve) => {
          this.endProbe = resolve;
        });
        return this.claimOf(this.mode, true);
      }
      await untilEither(this.probe, signal);
    }
  }

  private claimOf(mode: OutputMode, probing: boolean): ModeClaim {
    let settled = false;
    return {
      mode,
      settle: (outcome) => {
        if (settled) return;
        settled = true;
        this.record(mode, outcome);
        if (probing) this.finishProbe();
      },
    };
  }

  private record(mode: OutputMode, outcome: ProbeOutcome): void {
    if (outcome === 'worked' && mode === this.mode) this.confirmed = true;
    if (outcome === 'refused') this.stepBelow(mode);
    if (outcome === 'ignored' && ++this.ignoredAnswers >= this.ignoredThreshold) this.stepBelow(mode);
  }

  /** Monotonic: a refusal of a mode above the current one (a late answer) changes nothing. */
  private stepBelow(mode: OutputMode): void {
    const next = Math.min(this.modes.indexOf(mode) + 1, this.modes.length - 1);
    if (next <= this.index) return;
    this.index = next;
    this.confirmed = false;
    this.ignoredAnswers = 0;
  }

  private finishProbe(): void {
    const end = this.endProbe;
    this.probe = undefined;
    this.endProbe = undefined;
    end?.();
  }
}

function untilEither(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const aborted = (): void => reject(signal.reason);
    signal.addEventListener('abort', aborted, { once: true });
    promise.then(() => {
      signal.removeEventListener('abort', aborted);
      resolve();
    }, reject);
  });
}
