import { checkRun } from '../../shared/reduce/reduce.js';
import { reduceRange } from '../../shared/reduce/split-reduce.js';
import { InProcessQueue } from '../../shared/ports/in-process-queue.js';
import { LocalFolderStore } from '../../shared/ports/local-folder-store.js';
import { controlMessageSchema } from '../../shared/schema/pipeline-messages.js';
import { LatencyStore } from './latency-store.js';
import { peakResidentMiB } from './peak-memory.js';

/**
 * One deployed reducer invocation on one control message, in a process of its
 * own (a Lambda invocation's memory is its own), over a store folder with
 * S3-like latency:
 *   tsx bench/scale/reducer-invocation.ts STORE_FOLDER LATENCY_MS MESSAGE_JSON
 * Prints one JSON line: wall seconds, peak resident MiB, store requests, the
 * outcome and the control messages the invocation sent.
 */
const [folder, latency, body] = process.argv.slice(2);
if (folder === undefined || latency === undefined || body === undefined) throw new Error('Expected STORE_FOLDER LATENCY_MS MESSAGE_JSON');
const store = new LatencyStore(new LocalFolderStore(folder), Number(latency));
const control = new InProcessQueue('control', { visibilityTimeoutSeconds: 900 });
const message = controlMessageSchema.parse(JSON.parse(body));
const started = performance.now();
let outcome: string;
if (message.kind === 'reduce-range') {
  const reduced = await reduceRange(store, message);
  outcome = `range ${message.range}: ${reduced.cases} cases`;
} else if (message.kind === 'check') {
  const checked = await checkRun({ store, control, now: () => new Date() }, message);
  const progress = checked.kind === 'wait' ? checked.progress : undefined;
  outcome =
    checked.kind === 'reported'
      ? `reported (${checked.report.cases.evaluated} evaluated)`
      : progress?.kind === 'reducing'
        ? `reducing: ${progress.pendingRanges} ranges sent`
        : progress?.kind === 'cases'
          ? `waiting: ${progress.finished}/${progress.total}`
          : checked.kind;
} else {
  throw new Error(`The benchmark sends no ${message.kind} message`);
}
const seconds = (performance.now() - started) / 1000;
console.log(
  JSON.stringify({ kind: message.kind, seconds, peakMiB: peakResidentMiB(), requests: store.requests, outcome, sent: control.bodies() }),
);
