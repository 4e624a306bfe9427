import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { benchArgs, benchOptions, nonNegativeNumber, wholeNumber } from './bench-options.js';
import { timeAssayRun, type AssayRunFigures } from './scale/assay-run.js';

/**
 * The pipeline and the reducer at scale.
 * 1. `assay run` (the built CLI, embedded) of --cases cases × two engines,
 *    every case labelled with qrels (expected_retrieved_context), ground-truth
 *    metrics only: wall time and the process's peak resident memory. With
 *    --reference N, a run of N cases goes before it and another after it, and
 *    the large run's time is given as a multiple of theirs.
 * 2. Unless --embedded-only, the same run's reduce as the deployed reducer does it, over the run's
 *    store with --latency ms a request (S3 from a Lambda): each invocation in
 *    a process of its own, as Lambda gives each its own memory, driven by the
 *    control messages the previous ones sent (checks, then reduce-range
 *    messages for a run of 50,000 cases or more, then the merge).
 *
 *   npm run bench:scale -- --cases 100000 [--reference 10000] [--embedded-only] [--latency 20] [--keep]
 */
const { values } = benchArgs('bench:scale', {
  options: {
    cases: { type: 'string', default: '10000' },
    latency: { type: 'string', default: '20' },
    keep: { type: 'boolean', default: false },
    reference: { type: 'string' },
    'embedded-only': { type: 'boolean', default: false },
  },
});
const options = benchOptions(
  'bench:scale',
  z.object({ cases: wholeNumber(1), latency: nonNegativeNumber(), reference: wholeNumber(1).optional() }),
  values,
);
const { cases, latency } = options;
const referenceCases = options.reference;
const tsx = join(import.meta.dirname, '..', 'node_modules', '.bin', 'tsx');
const folder = await mkdtemp(join(tmpdir(), 'assay-scale-'));

async function writeDataset(path: string, count: number): Promise<void> {
  const output = createWriteStream(path);
  for (let index = 0; index < count; index++) {
    let lines = '';
    for (const engine of ['bm25', 'dense']) {
      const retrieved = [0, 1, 2, 3, 4].map((rank) => ({
        doc_uri: `d${(index * 31 + rank * (engine === 'bm25' ? 7 : 11)) % 997}`,
        content: `passage ${rank} of ${index}`,
      }));
      const expected = [0, 1, 2].map((offset) => ({ doc_uri: `d${(index * 31 + offset * 7) % 997}`, grade: 2 - offset }));
      lines += `${JSON.stringify({ request_id: `q${index}`, request: `question ${index}`, engine, retrieved_context: retrieved, expected_retrieved_context: expected })}\n`;
    }
    if (!output.write(lines)) await once(output, 'drain');
  }
  output.end();
  await once(output, 'close');
}

async function child(script: string, args: readonly string[]): Promise<Record<string, unknown>> {
  const process_ = spawn(tsx, [join(import.meta.dirname, 'scale', script), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  process_.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const [code] = (await once(process_, 'close')) as [number];
  if (code !== 0) throw new Error(`${script} exited with ${code}`);
  return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
}

/**
 * The run's reduce as the deployed reducer does it, from its records alone
 * (the embedded run reported already): each invocation in a process of its own.
 */
async function deployedReduce(store: string, runId: string): Promise<void> {
  await rm(join(store, 'runs', runId, 'partials'), { recursive: true, force: true });
  await rm(join(store, 'runs', runId, 'progress.json'), { force: true });
  // A check sends the next check (delayed) and, for a large run, the reduce-range messages: deliver the ranges first, as the delay would.
  const ranges: string[] = [];
  let nextCheck: string | undefined = JSON.stringify({ kind: 'check', run_id: runId, attempt: 0 });
  const invocations: { kind: string; seconds: number; peakMiB: number }[] = [];
  let reported = false;
  while (!reported) {
    const message: string | undefined = ranges.shift() ?? nextCheck;
    if (message === undefined) break;
    if (message === nextCheck) nextCheck = undefined;
    const invocation = await child('reducer-invocation.ts', [store, String(latency), message]);
    invocations.push({ kind: invocation.kind as string, seconds: invocation.seconds as number, peakMiB: invocation.peakMiB as number });
    console.log(
      `  ${invocation.kind}: ${invocation.outcome} in ${(invocation.seconds as number).toFixed(1)} s, ${invocation.requests} requests, peak ${(invocation.peakMiB as number).toFixed(0)} MiB`,
    );
    reported = String(invocation.outcome).startsWith('reported');
    for (const body of invocation.sent as string[]) {
      if ((JSON.parse(body) as { kind: string }).kind === 'check') nextCheck = body;
      else ranges.push(body);
    }
  }
  for (const kind of ['check', 'reduce-range']) {
    const ofKind = invocations.filter((invocation) => invocation.kind === kind);
    if (ofKind.length === 0) continue;
    console.log(
      `deployed reduce, ${kind}: ${ofKind.length} invocations, longest ${Math.max(...ofKind.map((entry) => entry.seconds)).toFixed(1)} s, ` +
        `peak ${Math.max(...ofKind.map((entry) => entry.peakMiB)).toFixed(0)} MiB (latency ${latency} ms a request)`,
    );
  }
  if (!reported) throw new Error('the simulated deployed reduce ended without a report');
}

try {
  const dataset = join(folder, 'dataset.jsonl');
  await writeDataset(dataset, cases);
  const reference = referenceCases === undefined ? undefined : join(folder, 'reference.jsonl');
  if (reference !== undefined) await writeDataset(reference, referenceCases as number);
  const references: AssayRunFigures[] = [];
  if (reference !== undefined) references.push(await timeAssayRun(reference, folder, 'reference-before'));
  const embedded = await timeAssayRun(dataset, folder, 'run');
  if (reference !== undefined) references.push(await timeAssayRun(reference, folder, 'reference-after'));
  console.log(
    `assay run: ${cases} cases × 2 engines in ${embedded.seconds.toFixed(1)} s, peak ${embedded.peakMiB.toFixed(0)} MiB resident; ${JSON.stringify(embedded.cases)}`,
  );
  if (references.length > 0) {
    const times = references.map((run) => run.seconds);
    const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
    console.log(
      `reference: ${referenceCases} cases in ${times.map((time) => time.toFixed(1)).join(' s and ')} s (before and after), peak ${Math.max(...references.map((run) => run.peakMiB)).toFixed(0)} MiB; ` +
        `the ${cases}-case run took ${(embedded.seconds / mean).toFixed(1)} times their mean (${(embedded.seconds / Math.max(...times)).toFixed(1)} to ${(embedded.seconds / Math.min(...times)).toFixed(1)})`,
    );
  }
  if (!options['embedded-only']) await deployedReduce(join(folder, 'run-store'), embedded.runId);
} finally {
  if (options.keep) console.log(`kept ${folder}`);
  else await rm(folder, { recursive: true, force: true });
}
