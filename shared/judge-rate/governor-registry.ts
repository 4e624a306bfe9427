import { RateGovernor, type GovernorSettings } from './rate-governor.js';

/** The process's governors by server and model (sharedGovernor's `key`). */
const governors = new Map<string, RateGovernor>();

/**
 * One rate governor per judge server and model in a process, whichever
 * client, judge service, run or worker batch asks: the server's limit is the
 * account's, not a client's, so every caller of the process must meet it
 * together. The first caller's settings make the governor; a later caller
 * with a larger concurrency raises its ceiling, and one with a lower
 * configured rate slows it (rate-governor.ts, `adopt`). `key` names the
 * server and model (a canonical base URL and the model name): never a
 * credential.
 */
export function sharedGovernor(key: string, settings: GovernorSettings): RateGovernor {
  const known = governors.get(key);
  if (known !== undefined) {
    known.adopt(settings);
    return known;
  }
  const governor = new RateGovernor(settings);
  governors.set(key, governor);
  return governor;
}

/**
 * Forgets every governor: for a process that runs one independent job after
 * another against servers of its own (the test workers that run file after
 * file), where a port used again would otherwise inherit the rate an earlier
 * server taught or an earlier config set.
 */
export function forgetGovernors(): void {
  governors.clear();
}
