import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { benchArgs, benchOptions, positiveNumber, seed, wholeNumber } from './bench-options.js';
import { buildLoaders } from './json-array/bundles.js';
import { generateJsonArray } from './json-array/generate-array.js';
import { median } from './time-command.js';

/**
 * Loading a large JSON array dataset: assay's reader with today's splitter,
 * the same reader with the splitter of a reference revision, and stream-json
 * (its StreamArray streamer, the usual library for streaming JSON arrays in
 * Node), each in a process of its own, in alternating rounds. Reports each
 * one's CPU time and MiB/s, the CPU ratios, and whether all three read the
 * same rows (a digest of every row's JSON, in order).
 *
 *   npm run bench:json-array -- [--rows 56000] [--mib 200] [--repeat 3] [--reference d116748] [--seed 7]
 *
 * The dataset is written once to bench/.data/ (ignored by git) and reused.
 */
const { values } = benchArgs('bench:json-array', {
  options: {
    rows: { type: 'string', default: '56000' },
    mib: { type: 'string', default: '200' },
    repeat: { type: 'string', default: '3' },
    // The last revision before the splitter's fast path.
    reference: { type: 'string', default: 'd116748' },
    seed: { type: 'string', default: '7' },
  },
});
const options = benchOptions(
  'bench:json-array',
  z.object({ rows: wholeNumber(1), mib: positiveNumber(), repeat: wholeNumber(1), seed: seed() }),
  values,
);

const folder = join(import.meta.dirname, '.data');
mkdirSync(folder, { recursive: true });
const { rows } = options;
const file = join(folder, `json-array-r${rows}-m${options.mib}-s${options.seed}.json`);
if (!existsSync(file)) {
  console.log(`Generating ${rows} rows, about ${options.mib} MiB...`);
  await generateJsonArray(file, { rows, bytes: options.mib * 2 ** 20, seed: options.seed });
}
const mebibytes = statSync(file).size / 2 ** 20;
const loaders = await buildLoaders(join(folder, 'json-array'), options.reference);
const contenders: Record<string, readonly string[]> = {
  'assay (this build)': [loaders.current, '--reader', 'assay', file],
  [`assay (${options.reference})`]: [loaders.reference, '--reader', 'assay', file],
  'stream-json 1.9.1': [loaders.current, '--reader', 'stream-json', file],
};

interface Loaded {
  readonly rows: number;
  readonly badRows: number;
  readonly digest: string;
  readonly cpuSeconds: number;
  readonly loadSeconds: number;
}
const results = new Map<string, Loaded[]>();
for (let round = 1; round <= options.repeat; round++) {
  for (const [name, args] of Object.entries(contenders)) {
    const loaded = await load(args);
    results.set(name, [...(results.get(name) ?? []), loaded]);
    console.log(
      `round ${round}: ${name.padEnd(20)} ${loaded.cpuSeconds.toFixed(2)} s CPU, ${loaded.loadSeconds.toFixed(2)} s loading, ${loaded.rows} rows`,
    );
  }
}

console.log(`\n${file}: ${mebibytes.toFixed(0)} MiB, ${rows} rows; medians of ${options.repeat} (min to max)`);
const cpuOf = (name: string): number[] => (results.get(name) ?? []).map((loaded) => loaded.cpuSeconds);
const [current, reference, library] = Object.keys(contenders) as [string, string, string];
for (const name of Object.keys(contenders)) {
  const cpu = cpuOf(name);
  const loading = (results.get(name) ?? []).map((loaded) => loaded.loadSeconds);
  console.log(
    `${name.padEnd(20)} CPU ${median(cpu).toFixed(2)} s (${Math.min(...cpu).toFixed(2)} to ${Math.max(...cpu).toFixed(2)}), ` +
      `${(mebibytes / median(loading)).toFixed(1)} MiB/s loading, ${(mebibytes / median(cpu)).toFixed(1)} MiB per CPU second`,
  );
}
const ratio = (a: string, b: string): string => {
  const pairs = cpuOf(a).map((cpu, index) => cpu / (cpuOf(b)[index] as number));
  return `${median(pairs).toFixed(2)} (${Math.min(...pairs).toFixed(2)} to ${Math.max(...pairs).toFixed(2)})`;
};
console.log(
  `CPU ratio, this build / ${options.reference}: ${ratio(current, reference)}; this build / stream-json: ${ratio(current, library)}`,
);
const digests = new Set([...results.values()].flat().map((loaded) => `${loaded.rows}/${loaded.badRows}/${loaded.digest}`));
console.log(`rows identical in every process: ${digests.size === 1 ? 'yes' : `NO (${[...digests].join(', ')})`}`);
console.log(
  `\nWhole-process commands, to time side by side:\n  node ${contenders[current]?.join(' ')}\n  node ${contenders[reference]?.join(' ')}\n  node ${contenders[library]?.join(' ')}`,
);

function load(args: readonly string[]): Promise<Loaded> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(output) as Loaded) : reject(new Error(`loader exited with ${code}`))));
  });
}
