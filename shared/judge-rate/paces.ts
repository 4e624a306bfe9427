import { Pace } from './pace.js';
import type { QuotaState } from './rate-headers.js';

/** The share of a known limit that is paced at: the room left for jitter on the way to the server. */
export const PACE_MARGIN = 0.98;

export type PaceKind = 'requests' | 'tokens';

/**
 * The paces in force for one server and model: requests and tokens a
 * minute, each configured (at 98% of the rate given) or learnt from the
 * server's refusals; an attempt waits for every one of them, so the slower
 * of a configured and a learnt pace binds.
 */
export class Paces {
  private readonly configured: { requests?: Pace; tokens?: Pace } = {};
  private readonly learnt: { requests?: Pace; tokens?: Pace } = {};

  /** A configured rate; a later, lower one slows it, a higher one changes nothing. */
  configure(kind: PaceKind, perMinute: number | undefined): void {
    if (perMinute === undefined) return;
    const paced = perMinute * PACE_MARGIN;
    const pace = this.configured[kind];
    if (pace === undefined) this.configured[kind] = new Pace(paced);
    else if (paced < pace.perMinute) pace.perMinute = paced;
  }

  /** A rate learnt from the server, replacing the one learnt before; undefined forgets it (a learnt pace undone). */
  learn(kind: PaceKind, perMinute: number | undefined): void {
    if (perMinute === undefined || !(perMinute > 0)) {
      delete this.learnt[kind];
      return;
    }
    const pace = this.learnt[kind];
    if (pace === undefined) this.learnt[kind] = new Pace(perMinute);
    else pace.perMinute = perMinute;
  }

  readyAt(now: number): number {
    return Math.max(now, ...this.all().map(({ pace }) => pace.readyAt(now)));
  }

  /** An attempt of `tokens` tokens starts now. */
  take(tokens: number, now: number): void {
    for (const { kind, pace } of this.all()) pace.take(kind === 'requests' ? 1 : tokens, now);
  }

  /** An attempt used `unused` tokens fewer than taken (more, when negative). */
  giveBackTokens(unused: number, now: number): void {
    for (const { kind, pace } of this.all()) if (kind === 'tokens') pace.giveBack(unused, now);
  }

  /** The slower pace of a kind, per minute; undefined when none is in force. */
  perMinute(kind: PaceKind): number | undefined {
    const rates = this.all().flatMap((entry) => (entry.kind === kind ? [entry.pace.perMinute] : []));
    return rates.length === 0 ? undefined : Math.min(...rates);
  }

  private all(): { kind: PaceKind; pace: Pace }[] {
    const kinds: PaceKind[] = ['requests', 'tokens'];
    return kinds.flatMap((kind) =>
      [this.configured[kind], this.learnt[kind]].flatMap((pace) => (pace === undefined ? [] : [{ kind, pace }])),
    );
  }
}

/** The per-minute pace a full quota allows: (limit - this attempt's cost) over the time until it is whole again. */
export function quotaPace(quota: QuotaState, cost: number): number | undefined {
  if (quota.limit === undefined || quota.resetMs === undefined || !(quota.resetMs > 0) || quota.limit <= cost) return undefined;
  return ((quota.limit - cost) * 60_000) / quota.resetMs;
}
