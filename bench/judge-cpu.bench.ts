import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { MAX_CONCURRENCY } from '../shared/schema/work-limits.js';
import { startOpenAiTestServer } from '../test/support/openai-test-server.js';
import { benchArgs, benchOptions, crossChecked, nonNegativeNumber, wholeNumber } from './bench-options.js';
import { writePassageDataset } from './passage-dataset.js';
import { median } from './time-command.js';

/**
 * The CPU one judgment costs `assay run` as a user starts it (the built CLI in
 * a process of its own, chunk_relevance only, `--no-cache`, `--concurrency
 * 16`), against a local test judge answering every request after --latency
 * ms (50): --small queries × 5 passages (200, 1,000 judgments), then --large
 * (1,000, 5,000 judgments), paired --repeat times (3). The figure is the
 * marginal CPU of the further judgments: (large's CPU − small's) / (their
 * difference in judgments), whole process (every thread), user + system,
 * read by the process itself as it exits (process.cpuUsage, through a
 * module given to node with --import). What a run costs besides is the
 * small run's CPU less its judgments at that rate.
 *
 * With --reference-cli PATH (the cli/bin.js of another build, e.g. an
 * export of the main branch), each round runs that build's pair too, right
 * after this one's, for a side-by-side comparison on the same machine load.
 *
 * With --profile DIR, one more pair of each build runs under `node
 * --cpu-prof`, and the bench prints the functions with the most self time in
 * each (their share of the profile's samples), and the same by package.
 *
 * `--repeat 0 --profile DIR` runs the profiles alone. Without --profile,
 * --repeat 0 is refused, and so is a --small not below --large (the figure
 * divides by their difference), with exit code 2 (bench-options.ts).
 *
 *   npm run bench:judge-cpu -- [--small 200] [--large 1000] [--passages 5] [--latency 50] [--repeat 3] [--reference-cli PATH] [--profile DIR] [--top 25]
 */
const { values } = benchArgs('bench:judge-cpu', {
  options: {
    small: { type: 'string', default: '200' },
    large: { type: 'string', default: '1000' },
    passages: { type: 'string', default: '5' },
    latency: { type: 'string', default: '50' },
    repeat: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '16' },
    profile: { type: 'string' },
    'reference-cli': { type: 'string' },
    top: { type: 'string', default: '25' },
  },
});
const options = benchOptions(
  'bench:judge-cpu',
  crossChecked(
    z.object({
      small: wholeNumber(1),
      large: wholeNumber(1),
      passages: wholeNumber(1),
      latency: nonNegativeNumber(),
      /** Pairs measured; 0 runs the profiles alone. */
      repeat: wholeNumber(0),
      concurrency: wholeNumber(1, MAX_CONCURRENCY),
      top: wholeNumber(1),
      profile: z.string().optional(),
    }),
    (parsed, refuse) => {
      if (parsed.repeat > 0 && parsed.small >= parsed.large)
        refuse('small', `below --large (${parsed.large}): the figure divides by their difference`);
      if (parsed.repeat === 0 && parsed.profile === undefined)
        refuse('repeat', 'at least 1 without --profile DIR (--repeat 0 runs the profiles alone)');
    },
  ),
  values,
);
const { small, large, passages, concurrency, repeat } = options;
const latencyMs = options.latency;
const clis: { name: string; path: string }[] = [
  { name: 'this build', path: join(import.meta.dirname, '..', 'cli', 'bin.js') },
  ...(options['reference-cli'] === undefined ? [] : [{ name: 'reference', path: options['reference-cli'] }]),
];
const folder = await mkdtemp(join(tmpdir(), 'assay-bench-cpu-'));

/** Written by the child as it exits: its CPU (all threads) and peak resident memory. */
const EXIT_USAGE = `import { writeFileSync } from 'node:fs';
process.on('exit', () => {
  const cpu = process.cpuUsage();
  writeFileSync(process.env.ASSAY_BENCH_USAGE_FILE, JSON.stringify({ user: cpu.user, system: cpu.system, maxRssKiB: process.resourceUsage().maxRSS }));
});
`;

const writeDataset = (queries: number): Promise<string> => writePassageDataset(folder, queries, passages);

interface Measured {
  readonly judgments: number;
  readonly cpuSeconds: number;
  readonly userSeconds: number;
  readonly systemSeconds: number;
  readonly wallSeconds: number;
  readonly maxRssMiB: number;
  readonly evaluated: number;
  readonly exitCode: number | null;
}

let runs = 0;

async function measure(cli: string, dataset: string, profileDir?: string): Promise<Measured> {
  const name = `run-${runs++}`;
  const configPath = join(folder, `${name}.json`);
  await writeFile(configPath, JSON.stringify({ judges: ['chunk_relevance'] }));
  const usageFile = join(folder, `${name}.usage.json`);
  const out = join(folder, `out-${name}`);
  const server = await startOpenAiTestServer({
    oracle: () => ({ json: { rationale: 'the passage answers it', rating: 'yes' } }),
    faults: { latencyMs },
  });
  const node = [
    '--max-semi-space-size=64',
    '--import',
    `data:text/javascript,${encodeURIComponent(EXIT_USAGE)}`,
    ...(profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', profileDir]),
  ];
  const args = [cli, 'run', dataset, '--config', configPath, '--store', join(folder, `store-${name}`), '--out', out];
  const environment = {
    ...process.env,
    OPENAI_API_KEY: 'bench-key',
    OPENAI_BASE_URL: server.baseUrl,
    ASSAY_JUDGE_MODEL: 'bench-model',
    ASSAY_BENCH_USAGE_FILE: usageFile,
  };
  const started = performance.now();
  const child = spawn(process.execPath, [...node, ...args, '--concurrency', String(concurrency), '--no-cache'], {
    env: environment,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
  const wallSeconds = (performance.now() - started) / 1000;
  const judgments = server.answered();
  await server.close();
  const usage = JSON.parse(await readFile(usageFile, 'utf8')) as { user: number; system: number; maxRssKiB: number };
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as { cases: { evaluated: number } };
  return {
    judgments,
    cpuSeconds: (usage.user + usage.system) / 1e6,
    userSeconds: usage.user / 1e6,
    systemSeconds: usage.system / 1e6,
    wallSeconds,
    maxRssMiB: usage.maxRssKiB / 1024,
    evaluated: report.cases.evaluated,
    exitCode,
  };
}

function describe(run: Measured): string {
  return (
    `${run.judgments} judgments: ${run.cpuSeconds.toFixed(2)} s CPU (${run.userSeconds.toFixed(2)} user, ${run.systemSeconds.toFixed(2)} sys), ` +
    `${run.wallSeconds.toFixed(2)} s wall, ${run.maxRssMiB.toFixed(0)} MiB; ${run.evaluated} cases evaluated, exit ${run.exitCode}`
  );
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number; readonly columnNumber: number };
}

/**
 * The functions and the places (a room of the code, a package, Node's
 * internals, the garbage collector) with the most self time in a
 * .cpuprofile, as shares of its busy samples (idle left out), each frame
 * read through the build's source maps. On a loaded machine a sample lands
 * where the process was preempted: a call that wakes another process or
 * thread (a socket's writev, a file open handed to libuv's threads) shows
 * more than the CPU it used.
 */
async function summariseProfile(path: string, top: number): Promise<string[]> {
  const profile = JSON.parse(await readFile(path, 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  let busy = 0;
  for (const sample of profile.samples) {
    const frame = frames.get(sample);
    if (frame === undefined || frame.functionName === '(idle)') continue;
    busy++;
    const source = await sourceOf(frame);
    const name = `${frame.functionName || '(anonymous)'} ${source}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + 1);
    const place = placeOf(frame.functionName, source);
    byPlace.set(place, (byPlace.get(place) ?? 0) + 1);
  }
  const ranked = (counts: Map<string, number>, count: number) =>
    [...counts]
      .sort((left, right) => right[1] - left[1])
      .slice(0, count)
      .map(([name, samples]) => `    ${((100 * samples) / busy).toFixed(1).padStart(5)}%  ${name}`);
  return [`  ${busy} busy samples; by place:`, ...ranked(byPlace, 15), '  top functions by self time:', ...ranked(byFunction, top)];
}

const sourceMaps = new Map<string, SourceMap | undefined>();

/** Where a frame's code comes from: its source file and line through the built file's map, a node: module, or nothing (V8's own entries). */
async function sourceOf(frame: ProfileNode['callFrame']): Promise<string> {
  if (!frame.url.startsWith('file:')) return frame.url === '' ? '' : `${frame.url}:${frame.lineNumber + 1}`;
  if (!sourceMaps.has(frame.url)) {
    const map = await readFile(`${fileURLToPath(frame.url)}.map`, 'utf8').then(
      (text) => new SourceMap(JSON.parse(text) as SourceMapPayload),
      () => undefined,
    );
    sourceMaps.set(frame.url, map);
  }
  const entry = sourceMaps.get(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
  if (entry === undefined || !('originalSource' in entry)) return relative(join(import.meta.dirname, '..'), fileURLToPath(frame.url));
  const file = entry.originalSource.replace(/^(\.\.\/)+/, '').replace(/.*node_modules\//, 'node_modules/');
  return `${file}:${entry.originalLine + 1}`;
}

/** Node's internals by what they do. */
const NODE_PLACES: readonly (readonly [RegExp, string])[] = [
  [
    /^node:internal\/(deps\/undici|webstreams|worker\/js_transferable|abort_controller|event_target)/,
    'node: fetch, web streams, abort signals',
  ],
  [/^node:(_http|http|https|net|tls|internal\/(stream|streams|http|net))/, 'node: http, sockets, streams'],
  [/^node:(fs|internal\/fs)/, 'node: files'],
  [/^node:internal\/(modules|bootstrap)/, 'node: module loading'],
];

/** A package, a room of the code (shared/judge-client), `node:` internals, or V8's own entry ((garbage collector), (program), a native call). */
function placeOf(functionName: string, source: string): string {
  if (source === '') return functionName.startsWith('(') ? functionName : '(native calls)';
  if (source.startsWith('node:')) return NODE_PLACES.find(([pattern]) => pattern.test(source))?.[1] ?? 'node: other';
  if (source.startsWith('node_modules/')) {
    const parts = source.slice('node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') === true ? `${parts[0]}/${parts[1]}` : (parts[0] ?? '');
  }
  return source.split('/').slice(0, 2).join('/').replace(/:\d+$/, '');
}

try {
  const [smallDataset, largeDataset] = [await writeDataset(small), await writeDataset(large)];
  console.log(
    `judge CPU: ${small} and ${large} queries × ${passages} passages, chunk_relevance, --concurrency ${concurrency} --no-cache, judge latency ${latencyMs} ms; ${repeat} pairs`,
  );
  const marginal = new Map(clis.map((cli) => [cli.name, [] as number[]]));
  const fixed = new Map(clis.map((cli) => [cli.name, [] as number[]]));
  for (let round = 0; round < repeat; round++) {
    for (const cli of clis) {
      const smallRun = await measure(cli.path, smallDataset);
      const largeRun = await measure(cli.path, largeDataset);
      const perJudgment = (largeRun.cpuSeconds - smallRun.cpuSeconds) / (largeRun.judgments - smallRun.judgments);
      marginal.get(cli.name)?.push(perJudgment);
      fixed.get(cli.name)?.push(smallRun.cpuSeconds - perJudgment * smallRun.judgments);
      console.log(`  ${cli.name}, round ${round + 1}: ${describe(smallRun)}`);
      console.log(`    ${describe(largeRun)}`);
      console.log(
        `    marginal ${(1000 * perJudgment).toFixed(3)} ms of CPU a judgment; fixed ${(smallRun.cpuSeconds - perJudgment * smallRun.judgments).toFixed(2)} s`,
      );
    }
  }
  for (const cli of repeat > 0 ? clis : []) {
    const perJudgment = marginal.get(cli.name) ?? [];
    console.log(
      `  ${cli.name}: median ${(1000 * median(perJudgment)).toFixed(3)} ms of CPU a judgment (${(1000 * Math.min(...perJudgment)).toFixed(3)} to ${(1000 * Math.max(...perJudgment)).toFixed(3)}; target <= 0.5), ` +
        `fixed ${median(fixed.get(cli.name) ?? []).toFixed(2)} s`,
    );
  }

  if (options.profile !== undefined) {
    for (const cli of clis) {
      for (const [label, dataset] of [
        ['small', smallDataset],
        ['large', largeDataset],
      ] as const) {
        const profileDir = join(options.profile, `${cli.name.replaceAll(' ', '-')}-${label}`);
        await rm(profileDir, { recursive: true, force: true });
        await mkdir(profileDir, { recursive: true });
        console.log(`profile, ${cli.name}, ${label} run: ${describe(await measure(cli.path, dataset, profileDir))}`);
        for (const file of (await readdir(profileDir)).filter((name) => name.endsWith('.cpuprofile')).sort()) {
          console.log(`  ${join(profileDir, file)}`);
          for (const line of await summariseProfile(join(profileDir, file), options.top)) console.log(line);
        }
      }
    }
  }
} finally {
  await rm(folder, { recursive: true, force: true });
}
