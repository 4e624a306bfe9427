// Preloaded (node --import) into an `assay` process by bench/scale/assay-run.ts: when the process
// exits, writes its peak resident memory in KiB (VmHWM, threads included; maxRSS where there is no
// /proc) to the file named by ASSAY_BENCH_PEAK_FILE. Worker threads load it too and write nothing.
import { readFileSync, writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const target = process.env.ASSAY_BENCH_PEAK_FILE;
if (isMainThread && target !== undefined) {
  process.on('exit', () => {
    let kib = process.resourceUsage().maxRSS;
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
      if (match !== null) kib = Number(match[1]);
    } catch {
      // Not Linux: maxRSS, already in KiB, stands.
    }
    writeFileSync(target, String(kib));
  });
}
