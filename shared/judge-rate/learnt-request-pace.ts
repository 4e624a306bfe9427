/** Attempts settled that close a round (LearntRequestPace). */
const ROUND_ATTEMPTS = 24;
/** The share of attempts a rate limit may refuse before the pace is cut: room for jitter at the limit. */
const TARGET_SHARE = 0.05;
/** A cut leaves a quarter at least: a round with every attempt refused tells no rate, only that it is far less. */
const LEAST_CUT_FACTOR = 0.25;
/** The least raise of a round within the target. */
const GROWTH = 0.05;
/** How fast the floor follows a lower share, for refusals at random that became fewer or stopped. */
const FLOOR_EASING = 0.125;

interface Round {
  readonly number: number;
  openedAt: number | undefined;
  started: number;
  settled: number;
  refused: number;
  exhausted: boolean;
}

/**
 * The requests pace learnt from what a judge server refuses: the control
 * loop of rate-governor.ts, over rounds of attempts.
 *
 * A round is the attempts started since the last decision, closed once
 * `ROUND_ATTEMPTS` of them have settled: at least one round trip, so each
 * decision sees the pace the one before set, and refusals that come
 * together make one decision, not one each. At its close:
 *
 * - a cut made at the last close is checked first. Cut to the rate the
 *   server accepted, a rate limit refuses next to nothing (or what it would
 *   refuse of the rate actually sent, if that was more); refusals that come
 *   whatever the pace (an overloaded gateway) go on as before. When the
 *   share refused is above what a limit would refuse by more than
 *   `TARGET_SHARE`, the cut is undone and that share is the server's floor;
 * - a share refused above the floor by more than `TARGET_SHARE` (and, once
 *   there is a floor, by more than twice a round's sampling error, so that
 *   chance alone seldom cuts) cuts the pace to the rate the server
 *   accepted: the rate sent, less the share refused above the floor (a
 *   quarter of it at least);
 * - a share within it raises the pace, unless an answer said the quota is
 *   used up: half way back to 95% of the rate last cut at, and by `GROWTH`
 *   at least; past that rate, where a limit may have been raised or lifted,
 *   the raise doubles with each round in a row without a refusal (up to
 *   doubling the pace). The floor eases towards a lower share, so a floor
 *   of refusals that stopped does not stay.
 *
 * The first refusal, before anything is learnt, holds every attempt for the
 * wait it asks; when the wait ends, the round so far gives the first pace:
 * what the server accepted over that time, its refusals known by then
 * (exact for a sliding window entered in a burst). A pace the server's
 * headers tell is taken at once when slower; the first pace is checked like
 * a cut. Later a told pace is taken when slower than the pace in force, so
 * headers that tell a pace the server does not keep are ignored when too
 * fast, and a pace they set too fast is cut by the rounds like any other.
 */
export class LearntRequestPace {
  private pace: number | undefined;
  private floor = 0;
  /** A cut to check at the next close, with the rate (per minute) the server accepted in the round that made it. */
  private check: { readonly accepted: number } | undefined;
  /** The pace of the last round that was not cut: where a cut that did not bring refusals down returns to. */
  private kept: number | undefined;
  /** The rate sent when the pace was last cut: the pace comes back towards it fast, and past it slowly. */
  private refusedAt: number | undefined;
  /** At the first refusal: when its wait ends, and the first pace is measured. */
  private firstPaceAt: number | undefined;
  /** Rounds in a row without a refusal at a pace past `refusedAt`. */
  private beyond = 0;
  private round: Round = openRound(0, undefined);

  /** Per minute; undefined until the server refused something a pace cures. */
  get perMinute(): number | undefined {
    return this.pace;
  }

  /** The share of attempts the server refuses whatever the pace, as last measured. */
  get refusalFloor(): number {
    return this.floor;
  }

  /** True until the first pace is measured: a refusal then holds every attempt, as a rate limit's would. */
  get holdsEveryone(): boolean {
    return this.firstPaceAt !== undefined || (this.pace === undefined && this.kept === undefined && this.floor === 0);
  }

  /**
   * A configured rate is where the pace starts: a refusal at it is then no
   * first contact, holding everyone and measuring anew, but one round's
   * share among others, cut only when the rounds show the rate is too fast.
   */
  startAt(perMinute: number): void {
    if (this.pace !== undefined || this.kept !== undefined) return;
    this.pace = perMinute;
    this.kept = perMinute;
  }

  /** An attempt starts now; returns its round, to be given back when it settles. */
  attempted(now: number): number {
    if (this.firstPaceAt !== undefined && now >= this.firstPaceAt) this.measureFirstPace(now);
    this.round.openedAt ??= now;
    this.round.started++;
    return this.round.number;
  }

  /** An attempt of `round` was answered, or failed otherwise than by a rate limit; `exhausted`: its answer said the quota is used up. */
  settled(round: number, now: number, exhausted = false): void {
    if (round !== this.round.number) return;
    if (exhausted) this.round.exhausted = true;
    this.count(false, now);
  }

  /** An attempt of `round` was refused by a rate limit, asking to wait `waitMs`; `told`: the pace (per minute) its headers tell. */
  refused(round: number, now: number, waitMs: number, told: number | undefined): void {
    if (this.holdsEveryone && this.firstPaceAt === undefined) this.firstPaceAt = now + waitMs;
    if (told !== undefined && told > 0 && (this.pace === undefined || told < this.pace)) {
      this.pace = told;
      // What the round measured was sent at another pace; the first pace's round goes on, to its wait's end.
      if (this.firstPaceAt === undefined) {
        this.check = undefined;
        this.round = openRound(this.round.number + 1, now);
        return;
      }
    }
    if (round === this.round.number) this.count(true, now);
  }

  private count(refused: boolean, now: number): void {
    this.round.settled++;
    if (refused) this.round.refused++;
    if (this.round.settled >= ROUND_ATTEMPTS && this.firstPaceAt === undefined) this.close(now);
  }

  private measureFirstPace(now: number): void {
    const { started, refused, openedAt } = this.round;
    this.firstPaceAt = undefined;
    // Nothing accepted yet tells no rate: the next refusal measures again.
    if (started === refused) return;
    const accepted = ((started - refused) * 60_000) / Math.max(1, now - (openedAt ?? now));
    this.pace = Math.min(this.pace ?? accepted, accepted);
    this.check = { accepted };
    this.refusedAt = accepted;
    this.round = openRound(this.round.number + 1, now);
  }

  private close(now: number): void {
    const { refused, settled, started, openedAt, exhausted } = this.round;
    const share = refused / settled;
    const sent = (started * 60_000) / Math.max(1, now - (openedAt ?? now));
    this.round = openRound(this.round.number + 1, now);
    if (this.check !== undefined) {
      const limitWouldRefuse = Math.max(0, 1 - this.check.accepted / sent);
      this.check = undefined;
      if (share > Math.max(this.floor, limitWouldRefuse) + TARGET_SHARE) {
        this.pace = this.kept;
        this.floor = share;
        return;
      }
      this.floor = Math.min(this.floor, share);
    }
    const samplingError = Math.sqrt((this.floor * (1 - this.floor)) / settled);
    if (share > this.floor + TARGET_SHARE + 2 * samplingError) {
      const base = Math.min(this.pace ?? sent, sent);
      this.check = { accepted: sent * (1 - share) };
      this.refusedAt = base;
      this.pace = base * Math.max(LEAST_CUT_FACTOR, 1 - (share - this.floor));
      return;
    }
    if (share < this.floor) this.floor += (share - this.floor) * FLOOR_EASING;
    // Only a pace that binds is raised: one far above what is sent says nothing of the server.
    if (this.pace !== undefined && !exhausted && this.pace < 2 * sent) {
      const halfWayBack = this.refusedAt === undefined ? 0 : (this.refusedAt * (1 - TARGET_SHARE) - this.pace) / 2;
      // Past the rate last refused, a limit may have been raised or lifted: each round in a row without a refusal doubles the raise.
      this.beyond = refused === 0 && this.pace >= (this.refusedAt ?? 0) ? this.beyond + 1 : 0;
      const raise = Math.min(1, GROWTH * 2 ** Math.max(0, this.beyond - 1));
      this.pace = Math.max(this.pace * (1 + raise), this.pace + halfWayBack);
    }
    this.kept = this.pace;
  }
}

function openRound(number: number, openedAt: number | undefined): Round {
  return { number, openedAt, started: 0, settled: 0, refused: 0, exhausted: false };
}
