import { readFileSync } from 'node:fs';

/**
 * Whether a process of this host that something was left in the name of (a
 * run's lease, a work folder) still runs.
 *
 * Signal 0 alone cannot tell: it reaches a zombie too, a process that has
 * exited but that its parent has not reaped. `kill -9` of `npx assay run`'s
 * process group leaves the node process such a zombie, for good, wherever
 * PID 1 reaps no orphans (many containers run without an init). On Linux,
 * /proc/PID/stat tells a zombie from a running process, and its start time
 * tells the process that was named from a later one given the same id. Where
 * there is no /proc (macOS, Windows), signal 0 is all there is.
 */

/** The fields of /proc/PID/stat that liveness needs. */
export interface ProcessStat {
  /** One letter (proc(5)): R running, S sleeping, D waiting on disk, Z zombie, X dead, … */
  readonly state: string;
  /** When the process started, in clock ticks after boot (field 22, `starttime`). */
  readonly startTime: number;
}

export type ProcessLiveness = 'alive' | 'missing' | 'zombie' | 'reused';

/** What is known of a process: whether signal 0 reached it, and its /proc entry when one could be read. */
export interface ProcessFacts {
  readonly signalled: boolean;
  readonly stat: ProcessStat | undefined;
}

/** Z: exited, not yet reaped; X and x (Linux 2.6.33 to 3.13): being torn down. */
const EXITED_STATES = new Set(['Z', 'X', 'x']);

/** Errors of reading /proc/PID/stat that mean there is no entry to read, rather than a fault. */
const NO_ENTRY_CODES = new Set(['ENOENT', 'ESRCH', 'EACCES', 'EPERM']);

/**
 * The state and start time in the text of /proc/PID/stat, or undefined when
 * the text is not of that form. The command name, the second field, is in
 * parentheses and may itself hold spaces and parentheses (a process names
 * itself as it likes), so the fields are counted from the last ')': the state
 * is field 3, the start time field 22.
 */
export function parseProcessStat(text: string): ProcessStat | undefined {
  const nameEnd = text.lastIndexOf(')');
  if (nameEnd < 0) return undefined;
  const fields = text
    .slice(nameEnd + 1)
    .trim()
    .split(/\s+/);
  const state = fields[0] ?? '';
  const startTime = Number(fields[22 - 3]);
  if (!/^[A-Za-z]$/.test(state) || !Number.isSafeInteger(startTime) || startTime < 0) return undefined;
  return { state, startTime };
}

/** Process `pid`'s /proc entry, or undefined where there is none to read: no /proc, no such process, or one hidden from this user. */
export function readProcessStat(pid: number): ProcessStat | undefined {
  try {
    return parseProcessStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch (error) {
    if (NO_ENTRY_CODES.has((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw error;
  }
}

/** When process `pid` started, to be recorded beside its id; undefined where /proc does not say. */
export function processStartTime(pid: number): number | undefined {
  return readProcessStat(pid)?.startTime;
}

/**
 * The decision on what is known of a process; `startTime` is the one recorded
 * when the process was named, if it was.
 */
export function livenessOf(facts: ProcessFacts, startTime: number | undefined): ProcessLiveness {
  if (!facts.signalled) return 'missing';
  // Not Linux, or an entry hidden from this user: signal 0 is all there is to go by.
  if (facts.stat === undefined) return 'alive';
  if (EXITED_STATES.has(facts.stat.state)) return 'zombie';
  // Process ids are reused: one that started at another time is another process.
  if (startTime !== undefined && facts.stat.startTime !== startTime) return 'reused';
  return 'alive';
}

/** What became of process `pid` of this host, started at `startTime` if that was recorded. */
export function processLiveness(pid: number, startTime?: number): ProcessLiveness {
  // /proc first: a process that ends between the two looks is then found missing, not alive without an entry.
  const stat = readProcessStat(pid);
  return livenessOf({ signalled: signalReaches(pid), stat }, startTime);
}

/** Signal 0 checks that a process exists without touching it; EPERM means it exists under another user. */
function signalReaches(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
