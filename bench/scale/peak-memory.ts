import { readFileSync } from 'node:fs';

/** The process's peak resident memory in MiB: VmHWM from /proc where there is one, else maxRSS. */
export function peakResidentMiB(): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match !== null) return Number(match[1]) / 1024;
  } catch {
    // Not Linux: fall through to the portable figure.
  }
  return process.resourceUsage().maxRSS / 1024;
}
