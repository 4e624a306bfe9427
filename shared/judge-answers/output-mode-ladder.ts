import { OUTPUT_MODES, type OutputMode } from './output-modes.js';

/**
 * The output mode a judge client uses, shared by all its calls. It only ever
 * steps down, never back up, whatever order late answers arrive in.
 *
 * No call waits for another to find out whether a mode works: the first
 * calls all go out at once in the highest mode not yet refused, so a run's
 * judge calls fill every slot from its first second. When the server refuses
 * the mode, every call in flight learns it from its own refusal and is sent
 * again one step down (a retry in the usage counts), and every later call
 * starts there. So 20 concurrent calls to a server that refuses json_schema
 * make 40 requests, the price of not holding 19 of them back for one
 * round trip.
 */

/** How a request in a mode ended: the mode worked, was refused, was ignored (prose), or nothing was learnt (a failure of another kind). */
export type ProbeOutcome = 'worked' | 'refused' | 'ignored' | 'undecided';

export interface ModeClaim {
  readonly mode: OutputMode;
  /** Records what the request in this mode showed; a claim is settled once, later calls are ignored. */
  settle(outcome: ProbeOutcome): void;
}

export class OutputModeLadder {
  private index = 0;
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
   * The mode to send now. `floor` is a mode this call must not go above (one
   * step below a mode it found ignored): while the shared mode is higher,
   * the call uses the floor on its own.
   */
  claim(floor?: OutputMode): ModeClaim {
    const mode = floor !== undefined && this.modes.indexOf(floor) > this.index ? floor : this.mode;
    let settled = false;
    return {
      mode,
      settle: (outcome) => {
        if (settled) return;
        settled = true;
        this.record(mode, outcome);
      },
    };
  }

  private record(mode: OutputMode, outcome: ProbeOutcome): void {
    if (outcome === 'refused') this.stepBelow(mode);
    // Late prose answers to a mode already left behind say nothing about the current one or those below.
    if (outcome === 'ignored' && this.modes.indexOf(mode) >= this.index && ++this.ignoredAnswers >= this.ignoredThreshold)
      this.stepBelow(mode);
  }

  /** Monotonic: a refusal of a mode above the current one (a late answer) changes nothing. */
  private stepBelow(mode: OutputMode): void {
    const next = Math.min(this.modes.indexOf(mode) + 1, this.modes.length - 1);
    if (next <= this.index) return;
    this.index = next;
    this.ignoredAnswers = 0;
  }
}
