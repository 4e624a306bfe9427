import { GrantedRate } from './granted-rate.js';
import { beyondFloor, type Check, sameShare, TARGET_SHARE } from './refusal-shares.js';

/** Attempts settled that close a round (LearntRequestPace). */
const ROUND_ATTEMPTS = 24;
/** A cut leaves a quarter at least: a round with every attempt refused tells no rate, only that it is far less. */
const LEAST_CUT_FACTOR = 0.25;
/** The least raise of a round within the target. */
const GROWTH = 0.05;
/** How fast the floor follows a lower share, for refusals at random that became fewer or stopped. */
const FLOOR_EASING = 0.125;
/** The share of a rate measured between refusals (granted-rate.ts) that a cut paces at: room for the jitter of the way there. */
const GRANTED_MARGIN = 0.95;
/**
 * The share of the most a measured limit may grant (one request more than counted) that the pace comes back to:
 * a sliding window's count between refusals is less exact than a token bucket's.
 */
const MEASURED_CEILING = 0.97;
/** The most a first pace's round may refuse for its refusals to be taken as random: a limit's, met at a first pace several times too fast. */
const MOST_AT_RANDOM = 0.5;
/** The fewest attempts settled that close a round early, when its refusals are far beyond the floor. */
const EARLIEST_CLOSE = 8;
/** Sampling errors by which refusals must follow the timing of what was let through to undo a floor, checked each round. */
const FLOOR_TIMED_ERRORS = 3;
/** Rounds without a refusal at the ceiling of a limit measured between refusals before the pace probes past it, for a limit raised or lifted. */
const PATIENCE = 4;

/** A refusal by a rate limit, as the governor read it. */
export interface Refusal {
  /** When the refused attempt started, and when its refusal came back. */
  readonly startedAt: number;
  readonly now: number;
  /** The wait it asks. */
  readonly waitMs: number;
  /** The pace (per minute) its headers tell. */
  readonly told: number | undefined;
  /** Its headers say the quota is spent (x-ratelimit-remaining-* 0): a limit's refusal, not one at random. */
  readonly spent: boolean;
}

interface Round {
  readonly number: number;
  openedAt: number | undefined;
  started: number;
  settled: number;
  refused: number;
  exhausted: boolean;
  /** The round right after a cut was undone, its refusals taken for random ones. */
  afterUndo: boolean;
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
 * - a cut made at the last close is checked first. Cut below the slowest
 *   rate the limit was measured to grant, a limit refuses next to nothing
 *   (or what it would refuse of the rate actually sent, if that was more);
 *   refusals that come whatever the pace (an overloaded gateway) go on as
 *   before. When the share refused is above what a limit would refuse by
 *   more than `TARGET_SHARE`, and the refusals do not follow the timing of
 *   what was let through (granted-rate.ts, `timed`), the cut is undone and
 *   that share is the server's floor; never after a round that let nothing
 *   through, whose refusals have no timing to tell;
 * - a share refused above the floor by more than `TARGET_SHARE` (and, once
 *   there is a floor, by more than twice a round's sampling error, so that
 *   chance alone seldom cuts) cuts the pace: to 95% of the rate the limit
 *   granted between its refusals (granted-rate.ts), which neither a burst
 *   let through first nor an allowance saved up counts in; where no such
 *   rate is measured (too few let through between refusals, or refusals at
 *   random beside), to the rate the server accepted: the rate sent, less
 *   the share refused above the floor (a quarter of it at least);
 * - a share within it raises the pace, unless an answer said the quota is
 *   used up. After a measured cut: back to 97% of the most the limit may
 *   grant, as measured at each close, half way at a time and by `GROWTH`
 *   at least; kept there `PATIENCE` rounds without a refusal; then past it,
 *   where a limit may have been raised or lifted, the raise doubling with
 *   each round without a refusal (up to doubling the pace), until a refusal
 *   sends it straight back. After any other cut: half way back to 95% of
 *   the rate last cut at, and by `GROWTH` at least, doubling past it in the
 *   same way. The floor eases towards a lower share, so a floor of
 *   refusals that stopped does not stay, and is undone by refusals that
 *   follow the timing of what was let through, or far beyond it (more than
 *   half way to every attempt refused; in the round right after it was
 *   set, as soon as 8 have settled): a limit's, taken for random ones.
 *
 * The first refusal, before anything is learnt, holds every attempt for the
 * wait it asks; when the wait ends, the round so far gives the first pace:
 * what the server accepted over that time, its refusals known by then
 * (exact for a sliding window entered in a burst, several times too fast
 * for a token bucket, whose burst it counts). It is checked like a cut;
 * since it may be that much too fast, its refusals are taken for random
 * ones only when, besides, their share is the first burst's (to within
 * twice the sampling error), not more than half the round, and no refusal
 * said the quota was spent. A pace the server's headers tell is
 * taken at once when slower; later a told pace is taken when slower than
 * the pace in force, so headers that tell a pace the server does not keep
 * are ignored when too fast, and a pace they set too fast is cut by the
 * rounds like any other.
 */
export class LearntRequestPace {
  private pace: number | undefined;
  private floor = 0;
  /** A cut to check at the next close: the rate (per minute) the server accepted in the round that made it, and that round's refusals. */
  private check: Check | undefined;
  /** The rate the server grants, measured between its refusals. */
  private readonly granted = new GrantedRate();
  /** The pace of the last round that was not cut: where a cut that did not bring refusals down returns to. */
  private kept: number | undefined;
  /**
   * The rate sent when the pace was last cut, or the most the limit may grant when a cut measured it: the pace
   * comes back towards 95% of it (97% of the most a limit may grant) fast, and past it slowly.
   */
  private refusedAt: number | undefined;
  /** At the first refusal: when its wait ends, and the first pace is measured. */
  private firstPaceAt: number | undefined;
  /** The rate a limit was measured to grant at the last cut (granted-rate.ts); undefined when the cut had no such measure. */
  private measured: number | undefined;
  /** Rounds in a row without a refusal at a pace past `refusedAt` (at its ceiling, when a limit is measured). */
  private beyond = 0;
  private round: Round = openRound(0, undefined);
  /** A refusal's headers said the quota was spent (x-ratelimit-remaining-* 0): the first pace's refusals are then a limit's. */
  private spentSaid = false;

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
    this.granted.started(now);
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

  /** An attempt of `round` was refused by a rate limit. */
  refused(round: number, refusal: Refusal): void {
    const { startedAt, now, waitMs, told } = refusal;
    this.granted.refused(startedAt, now);
    if (refusal.spent) this.spentSaid = true;
    if (this.holdsEveryone && this.firstPaceAt === undefined) this.firstPaceAt = now + waitMs;
    if (told !== undefined && told > 0 && (this.pace === undefined || told < this.pace)) {
      this.pace = told;
      // What the round measured was sent at another pace; the first pace's round goes on, to its wait's end.
      if (this.firstPaceAt === undefined) {
        this.check = undefined;
        const { afterUndo } = this.round;
        this.round = openRound(this.round.number + 1, now);
        this.round.afterUndo = afterUndo;
        return;
      }
    }
    // Probing past a measured limit, a refusal says it stands: back to 97% of the most it may grant at once, not at the round's end.
    if (this.probing && this.pace !== undefined) {
      this.pace = Math.min(this.pace, (this.refusedAt ?? this.pace) * MEASURED_CEILING);
      this.beyond = 0;
    }
    if (round === this.round.number) this.count(true, now);
  }

  /** The pace is above 97% of the most a limit measured between refusals may grant, to find whether it was raised or lifted. */
  private get probing(): boolean {
    return this.measured !== undefined && this.beyond > PATIENCE;
  }

  private count(refused: boolean, now: number): void {
    this.round.settled++;
    if (refused) this.round.refused++;
    if (this.firstPaceAt !== undefined) return;
    const { settled } = this.round;
    // In the round after refusals were taken for random ones, refusals far beyond their floor end it early: a limit's, met
    // at the pace the undone cut let run free.
    const early = this.round.afterUndo && settled >= EARLIEST_CLOSE && beyondFloor(this.round.refused / settled, this.floor, settled);
    if (settled >= ROUND_ATTEMPTS || early) this.close(now);
  }

  private measureFirstPace(now: number): void {
    const { started, refused, openedAt } = this.round;
    this.firstPaceAt = undefined;
    // Nothing accepted yet tells no rate: the next refusal measures again.
    if (started === refused) return;
    const accepted = ((started - refused) * 60_000) / Math.max(1, now - (openedAt ?? now));
    this.pace = Math.min(this.pace ?? accepted, accepted);
    this.check = { accepted, share: refused / started, attempts: started, first: true };
    this.refusedAt = accepted;
    this.round = openRound(this.round.number + 1, now);
  }

  private close(now: number): void {
    const { refused, settled, started, openedAt, exhausted } = this.round;
    const share = refused / settled;
    const sent = (started * 60_000) / Math.max(1, now - (openedAt ?? now));
    this.round = openRound(this.round.number + 1, now);
    // A floor is undone by refusals far beyond it, or that follow the timing of what was let through: a limit's after all.
    if (this.floor > 0 && (beyondFloor(share, this.floor, settled) || this.granted.timed(FLOOR_TIMED_ERRORS))) this.floor = 0;
    // Between refusals at random no rate is granted: the span tells one only while every refusal is the limit's.
    const granted = this.floor === 0 ? this.granted.estimate() : undefined;
    if (refused === 0) this.granted.end();
    // A limit measured: the pace comes back to 97% of the most it may grant, as measured now.
    if (this.measured !== undefined && granted !== undefined) this.refusedAt = granted.mostPerMinute;
    if (this.check !== undefined) {
      const check = this.check;
      const limitWouldRefuse = Math.max(0, 1 - check.accepted / sent);
      this.check = undefined;
      // At the first pace, refusals are taken for random only when nothing says otherwise: their share what the first burst's
      // was, not most of the round, and none saying the quota was spent. After a cut, when they did not fall as a limit's would.
      // Never when the round let nothing through: its refusals have no timing to tell, and a pace restored would knock on.
      const firstAsBefore = !this.spentSaid && sameShare(check, share, settled) && share <= MOST_AT_RANDOM;
      const asBefore = (check.first !== true || firstAsBefore) && refused < settled && !this.granted.timed();
      if (share > Math.max(this.floor, limitWouldRefuse) + TARGET_SHARE && asBefore) {
        this.pace = this.kept;
        this.floor = share;
        this.measured = undefined;
        this.round.afterUndo = true;
        return;
      }
      this.floor = Math.min(this.floor, share);
    }
    const samplingError = Math.sqrt((this.floor * (1 - this.floor)) / settled);
    if (share > this.floor + TARGET_SHARE + 2 * samplingError) {
      const base = Math.min(this.pace ?? sent, sent);
      this.measured = granted?.perMinute;
      if (granted !== undefined) {
        this.check = { accepted: granted.leastPerMinute, share, attempts: settled };
        this.refusedAt = granted.mostPerMinute;
        this.pace = Math.min(base, GRANTED_MARGIN * granted.perMinute);
        return;
      }
      this.check = { accepted: sent * (1 - share), share, attempts: settled };
      this.refusedAt = base;
      this.pace = base * Math.max(LEAST_CUT_FACTOR, 1 - (share - this.floor));
      return;
    }
    if (share < this.floor) this.floor += (share - this.floor) * FLOOR_EASING;
    // Only a pace that binds is raised: one far above what is sent says nothing of the server.
    if (this.pace !== undefined && !exhausted && this.pace < 2 * sent) this.pace = this.raised(this.pace, refused);
    this.kept = this.pace;
  }

  /** The pace after a round within the target, with `refused` refusals. */
  private raised(pace: number, refused: number): number {
    const ceiling = this.refusedAt === undefined ? 0 : this.refusedAt * (this.measured === undefined ? 1 - TARGET_SHARE : MEASURED_CEILING);
    const halfWayBack = (ceiling - pace) / 2;
    if (this.measured !== undefined) {
      // A limit measured between refusals: back to 97% of the most it may grant fast, then kept there PATIENCE rounds without a
      // refusal before probing past.
      if (pace < ceiling) {
        this.beyond = 0;
        return Math.min(ceiling, Math.max(pace * (1 + GROWTH), pace + halfWayBack));
      }
      // Refusals past it, if fewer than a cut's: back to it.
      if (refused > 0) {
        this.beyond = 0;
        return ceiling;
      }
      this.beyond++;
      return this.beyond <= PATIENCE ? pace : pace * (1 + Math.min(1, GROWTH * 2 ** (this.beyond - PATIENCE - 1)));
    }
    // Past the rate last refused, a limit may have been raised or lifted: each round in a row without a refusal doubles the raise.
    this.beyond = refused === 0 && pace >= (this.refusedAt ?? 0) ? this.beyond + 1 : 0;
    const raise = Math.min(1, GROWTH * 2 ** Math.max(0, this.beyond - 1));
    return Math.max(pace * (1 + raise), pace + halfWayBack);
  }
}

function openRound(number: number, openedAt: number | undefined): Round {
  return { number, openedAt, started: 0, settled: 0, refused: 0, exhausted: false, afterUndo: false };
}
