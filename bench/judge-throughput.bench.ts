import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { catalogOracle } from '../test/support/judge-oracle.js';
import { startOpenAiTestServer, type FaultPlan, type OpenAiTestServer } from '../test/support/openai-test-server.js';
import type { RequestLimit } from '../test/support/request-window.js';
import type { TokenBucketLimit } from '../test/support/token-bucket.js';
import { benchArgs, benchOptions, crossChecked, listOf, nonNegativeNumber, oneOf, wholeNumber } from './bench-options.js';
import { writePassageDataset } from './passage-dataset.js';
import { median } from './time-command.js';

/**
 * Judge throughput of `assay run` as a user starts it (the built CLI in a
 * process of its own, chunk_relevance only unless said, no cache), against
 * a local test judge:
 *
 * - rate limit: 100 queries × 5 passages (500 judgments), `--concurrency
 *   16`, against a judge allowing --limit requests a minute (600), enforced
 *   over a sliding window of --window-ms (1,000 ms: 10 a second, as OpenAI
 *   says it may enforce a minute's quota over shorter periods), answering
 *   429 with retry-after-ms past it and every admitted request after each
 *   --latency (50 and 500 ms). At each latency, four judges: x-ratelimit-*
 *   headers whose reset is the time until the quota is whole (as OpenAI
 *   documents it), the same with a reset that is the time until the next
 *   request is allowed (as other servers send it), no x-ratelimit-* headers
 *   (retry-after only), all three without a rate setting; and the first
 *   with `judge.rate_limit.requests_per_minute` at the limit. Then three
 *   judges limited by a token bucket instead (test/support/token-bucket.ts:
 *   --limit a minute, a burst of --burst (10), 429 with retry-after-ms the
 *   time to the next token past it, and x-ratelimit-limit-requests the
 *   minute's quota, as OpenAI sends it): x-ratelimit-reset-requests the
 *   time to the next token (the judge of issue 42), the time to a full
 *   bucket (OpenAI's meaning of reset), and none; no rate setting.
 *   --limiter window,bucket picks either. Figures: the judgments a second
 *   between the first request and the last answer, as a share of the
 *   limit's (10 a second), the share of requests refused, and whether every
 *   judgment was answered exactly once;
 * - random 429s: examples/datasets/search-assistant.jsonl with nine
 *   catalog judges (213 judgments), `--concurrency 8`, against a judge that
 *   answers at once but refuses 20% of requests at random (429,
 *   retry-after-ms 50, no x-ratelimit-* headers: an overloaded gateway) and
 *   fails 5% (500), from a seeded random, each round right after the same
 *   run against a judge that refuses nothing. Figures: the whole command's
 *   time against the refusal-free run's, and whether every judgment was
 *   answered exactly once;
 * - full pipe: 200 queries × 5 passages (1,000 judgments), `--concurrency
 *   16`, a judge answering after 500 ms with no limit; the ideal is 1,000 ×
 *   0.5 s / 16 = 31.25 s. Figures: the ideal as a share of the judging
 *   window (first request to last answer) and of the whole command (start
 *   to exit), when the first request left after the command's start, and
 *   how long after it 16 were in flight.
 *
 * Each part runs --repeat times (3); with --reference-cli PATH (the cli/bin.js
 * of another build, e.g. an export of the main branch), each round runs that
 * build too, right after this one, for a side-by-side comparison.
 *
 *   npm run bench:judge-throughput -- [--part rate-limit|random-429|full-pipe|all] [--latency 50,500] [--limiter window,bucket] [--burst 10] [--repeat 3] [--reference-cli PATH]
 */
const { values } = benchArgs('bench:judge-throughput', {
  options: {
    part: { type: 'string', default: 'all' },
    repeat: { type: 'string', default: '3' },
    limit: { type: 'string', default: '600' },
    'window-ms': { type: 'string', default: '1000' },
    burst: { type: 'string', default: '10' },
    limiter: { type: 'string', default: 'window,bucket' },
    latency: { type: 'string', default: '50,500' },
    'reference-cli': { type: 'string' },
  },
});
const options = benchOptions(
  'bench:judge-throughput',
  crossChecked(
    z.object({
      part: oneOf(['rate-limit', 'random-429', 'full-pipe', 'all']),
      repeat: wholeNumber(1),
      limit: wholeNumber(1),
      'window-ms': wholeNumber(1),
      burst: wholeNumber(1),
      limiter: listOf(oneOf(['window', 'bucket'])),
      latency: listOf(nonNegativeNumber()),
    }),
    (parsed, refuse) => {
      // The sliding window admits Math.round(limit × window / 60,000 ms) requests: at 0 no request would ever pass.
      const shortest = Math.ceil(30_000 / parsed.limit);
      const windowed = parsed.limiter.includes('window') && (parsed.part === 'rate-limit' || parsed.part === 'all');
      if (windowed && parsed['window-ms'] < shortest) {
        refuse('window-ms', `at least ${shortest} to admit one request a window at --limit ${parsed.limit} a minute`);
      }
    },
  ),
  values,
);
const { repeat, burst } = options;
const limitPerMinute = options.limit;
const windowMs = options['window-ms'];
const limiters = options.limiter;
const latencies = options.latency;
const clis: { name: string; path: string }[] = [
  { name: 'this build', path: join(import.meta.dirname, '..', 'cli', 'bin.js') },
  ...(options['reference-cli'] === undefined ? [] : [{ name: 'reference', path: options['reference-cli'] }]),
];
const folder = await mkdtemp(join(tmpdir(), 'assay-bench-judges-'));

const writeDataset = (queries: number, passages: number): Promise<string> => writePassageDataset(folder, queries, passages);

interface CommandRun {
  readonly startedAt: number;
  readonly endedAt: number;
  readonly exitCode: number | null;
  /** Undefined when the command wrote no report (a reference build that refuses a setting). */
  readonly report: { cases: { evaluated: number; failed: number; missing: number } } | undefined;
}

/** Runs `assay run` in a process of its own against `server`; times are performance.now() of this process. */
let runs = 0;

async function assayRun(
  cli: string,
  dataset: string,
  config: object,
  server: OpenAiTestServer,
  part: string,
  concurrency: number,
): Promise<CommandRun> {
  const name = `${part}-${runs++}`;
  const configPath = join(folder, `${name}.json`);
  await writeFile(configPath, JSON.stringify(config));
  const out = join(folder, `out-${name}`);
  const args = [
    cli,
    'run',
    dataset,
    '--config',
    configPath,
    '--store',
    join(folder, `store-${name}`),
    '--out',
    out,
    '--concurrency',
    String(concurrency),
    '--no-cache',
  ];
  const environment = { ...process.env, OPENAI_API_KEY: 'bench-key', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'bench-model' };
  const startedAt = performance.now();
  const child = spawn(process.execPath, ['--max-semi-space-size=64', ...args], { env: environment, stdio: ['ignore', 'ignore', 'ignore'] });
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
  const endedAt = performance.now();
  const report = await readFile(join(out, 'report.json'), 'utf8').then(
    (text) => JSON.parse(text) as CommandRun['report'],
    () => undefined,
  );
  return { startedAt, endedAt, exitCode, report };
}

const verdict = () => ({ json: { rationale: 'the passage answers it', rating: 'yes' } });

/** Bodies answered more than once (a judgment made twice) and the answered judgments. */
function answeredOnce(server: OpenAiTestServer): { answered: number; twice: number } {
  const seen = new Map<string, number>();
  for (const entry of server.log) {
    if (entry.outcome !== 'answer') continue;
    const key = JSON.stringify(entry.request.messages);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return { answered: seen.size, twice: [...seen.values()].filter((count) => count > 1).length };
}

/** From the first request the server saw to its last answer, in seconds. */
function judgingWindow(server: OpenAiTestServer, run: CommandRun): number {
  const first = server.log[0]?.receivedAt ?? run.startedAt;
  return (Math.max(...server.log.map((entry) => entry.answeredAt ?? 0)) - first) / 1000;
}

function casesOf(run: CommandRun): string {
  const cases = run.report?.cases ?? { evaluated: 0, failed: 0, missing: 0 };
  return `cases evaluated ${cases.evaluated}, failed ${cases.failed}, missing ${cases.missing}; exit ${run.exitCode}`;
}

interface RateSetting {
  readonly name: string;
  readonly limiter: 'window' | 'bucket';
  /** The judge's limit: a sliding window of `perWindow` requests, or a token bucket of `burst`. */
  readonly faults: Pick<FaultPlan, 'requestLimit' | 'tokenBucket'>;
  readonly config: object;
  /** A reference build from before judge.rate_limit would refuse the setting. */
  readonly reference: boolean;
}

async function rateLimitPart(): Promise<void> {
  const dataset = await writeDataset(100, 5);
  const perWindow = Math.round((limitPerMinute * windowMs) / 60_000);
  const idealPerSecond = limitPerMinute / 60;
  const window = (limit: Omit<RequestLimit, 'requests' | 'windowMs'>) => ({ requestLimit: { requests: perWindow, windowMs, ...limit } });
  const bucket = (limit: Omit<TokenBucketLimit, 'perMinute' | 'burst'>) => ({
    tokenBucket: { perMinute: limitPerMinute, burst, ...limit },
  });
  const settings: RateSetting[] = [
    {
      name: 'reset to a whole quota (OpenAI), no rate setting',
      limiter: 'window',
      faults: window({ reset: 'full' }),
      config: {},
      reference: true,
    },
    {
      name: 'reset to the next free request, no rate setting',
      limiter: 'window',
      faults: window({ reset: 'next' }),
      config: {},
      reference: true,
    },
    {
      name: 'no x-ratelimit-* headers, retry-after only, no rate setting',
      limiter: 'window',
      faults: window({ headers: false }),
      config: {},
      reference: true,
    },
    {
      name: `reset to a whole quota, requests_per_minute: ${limitPerMinute}`,
      limiter: 'window',
      faults: window({ reset: 'full' }),
      config: { rate_limit: { requests_per_minute: limitPerMinute } },
      reference: false,
    },
    {
      name: 'token bucket, reset to the next token (issue 42), no rate setting',
      limiter: 'bucket',
      faults: bucket({ reset: 'next' }),
      config: {},
      reference: true,
    },
    {
      name: 'token bucket, reset to a full bucket (OpenAI), no rate setting',
      limiter: 'bucket',
      faults: bucket({ reset: 'full' }),
      config: {},
      reference: true,
    },
    {
      name: 'token bucket, no x-ratelimit-* headers, retry-after only, no rate setting',
      limiter: 'bucket',
      faults: bucket({ headers: false }),
      config: {},
      reference: true,
    },
  ];
  for (const latencyMs of latencies) {
    console.log(
      `rate limit: 500 judgments, --concurrency 16, judge latency ${latencyMs} ms, ${limitPerMinute} requests a minute (${perWindow} per ${windowMs} ms sliding window, or a token bucket of ${burst}); ideal ${idealPerSecond.toFixed(1)} judgments/s`,
    );
    for (const setting of settings.filter((candidate) => limiters.includes(candidate.limiter))) {
      for (const cli of clis.filter((candidate) => setting.reference || candidate.name === 'this build')) {
        const shares: number[] = [];
        const refusals: number[] = [];
        for (let round = 0; round < repeat; round++) {
          const server = await startOpenAiTestServer({
            oracle: verdict,
            faults: { latencyMs, ...setting.faults },
          });
          const run = await assayRun(cli.path, dataset, { judges: ['chunk_relevance'], judge: setting.config }, server, 'rate', 16);
          await server.close();
          const seconds = judgingWindow(server, run);
          const { answered, twice } = answeredOnce(server);
          const refused = server.log.filter((entry) => entry.status === 429).length;
          shares.push(answered / seconds / idealPerSecond);
          refusals.push(refused / server.log.length);
          console.log(
            `  ${latencyMs} ms, ${setting.name}, ${cli.name}, round ${round + 1}: ${answered} judged in ${seconds.toFixed(1)} s = ${(100 * (shares.at(-1) ?? 0)).toFixed(1)}% of the limit; ` +
              `${refused} of ${server.log.length} requests refused (${(100 * (refusals.at(-1) ?? 0)).toFixed(1)}%); judged twice ${twice}; ${casesOf(run)}`,
          );
        }
        console.log(
          `  ${latencyMs} ms, ${setting.name}, ${cli.name}: median ${(100 * median(shares)).toFixed(1)}% of the limit (${spread(shares)}), refused ${(100 * median(refusals)).toFixed(1)}% (${spread(refusals)})`,
        );
      }
    }
  }
}

/** Nine catalog judges on one model: 213 judgments of the example dataset, as a run with several judges makes them. */
const SEVERAL_JUDGES = [
  'chunk_relevance',
  'graded_relevance',
  'correctness',
  'groundedness',
  'relevance_to_query',
  'safety',
  'context_sufficiency',
  'answer_faithfulness',
  'relevancy',
];

async function random429Part(): Promise<void> {
  const dataset = join(import.meta.dirname, '..', 'examples', 'datasets', 'search-assistant.jsonl');
  console.log(
    'random 429s: examples/datasets/search-assistant.jsonl, nine judges, --concurrency 8; 20% of requests refused (429, retry-after-ms 50, no x-ratelimit-* headers) and 5% failed (500) at random, against no refusals',
  );
  for (const cli of clis) {
    const ratios: number[] = [];
    for (let round = 0; round < repeat; round++) {
      const times: number[] = [];
      for (const faults of [{}, { rateLimit: 0.2, serverError: 0.05, retryAfterMs: 50, seed: round + 1 }] satisfies FaultPlan[]) {
        const server = await startOpenAiTestServer({ oracle: catalogOracle, faults });
        const run = await assayRun(cli.path, dataset, { judges: SEVERAL_JUDGES }, server, 'random', 8);
        await server.close();
        const { answered, twice } = answeredOnce(server);
        const refused = server.log.filter((entry) => entry.status === 429).length;
        const failed = server.log.filter((entry) => entry.status === 500).length;
        times.push((run.endedAt - run.startedAt) / 1000);
        console.log(
          `  ${'rateLimit' in faults ? 'random 429s and 500s' : 'no refusals'}, ${cli.name}, round ${round + 1}: whole command ${(times.at(-1) ?? 0).toFixed(2)} s, judging window ${judgingWindow(server, run).toFixed(2)} s; ` +
            `${server.log.length} requests, ${refused} refused, ${failed} failed; ${answered} judged, twice ${twice}; ${casesOf(run)}`,
        );
      }
      ratios.push((times[1] ?? 0) / (times[0] ?? 1));
    }
    console.log(
      `  ${cli.name}: the run with random refusals took ${median(ratios).toFixed(2)} times the refusal-free run's time (${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)})`,
    );
  }
}

async function fullPipePart(): Promise<void> {
  const dataset = await writeDataset(200, 5);
  const concurrency = 16;
  const ideal = (1000 * 0.5) / concurrency;
  console.log(`full pipe: 1,000 judgments, --concurrency ${concurrency}, judge latency 500 ms; ideal ${ideal} s`);
  for (const cli of clis) {
    const windowShares: number[] = [];
    const wallShares: number[] = [];
    for (let round = 0; round < repeat; round++) {
      const server = await startOpenAiTestServer({ oracle: verdict, faults: { latencyMs: 500 } });
      const run = await assayRun(cli.path, dataset, { judges: ['chunk_relevance'] }, server, 'pipe', concurrency);
      await server.close();
      const first = server.log[0]?.receivedAt ?? run.startedAt;
      const full = fullAt(server, concurrency);
      windowShares.push(ideal / judgingWindow(server, run));
      wallShares.push(ideal / ((run.endedAt - run.startedAt) / 1000));
      console.log(
        `  ${cli.name}, round ${round + 1}: ${server.log.length} requests; judging window ${judgingWindow(server, run).toFixed(2)} s = ${(100 * (windowShares.at(-1) ?? 0)).toFixed(1)}% of ideal; ` +
          `whole command ${((run.endedAt - run.startedAt) / 1000).toFixed(2)} s = ${(100 * (wallShares.at(-1) ?? 0)).toFixed(1)}%; ` +
          `first request ${(first - run.startedAt).toFixed(0)} ms after the start; ${concurrency} in flight ${full === undefined ? 'never' : `${(full - first).toFixed(0)} ms after the first`}; exit ${run.exitCode}`,
      );
    }
    console.log(
      `  ${cli.name}: median ${(100 * median(windowShares)).toFixed(1)}% of ideal over the judging window (${spread(windowShares)}), ${(100 * median(wallShares)).toFixed(1)}% over the whole command (${spread(wallShares)})`,
    );
  }
}

/** When `count` requests were first in flight together at the server. */
function fullAt(server: OpenAiTestServer, count: number): number | undefined {
  const events = server.log.flatMap((entry) => [
    { at: entry.receivedAt, change: 1 },
    { at: entry.answeredAt ?? Number.POSITIVE_INFINITY, change: -1 },
  ]);
  events.sort((left, right) => left.at - right.at || left.change - right.change);
  let inFlight = 0;
  for (const event of events) {
    inFlight += event.change;
    if (inFlight >= count) return event.at;
  }
  return undefined;
}

function spread(values: readonly number[]): string {
  return `${(100 * Math.min(...values)).toFixed(1)} to ${(100 * Math.max(...values)).toFixed(1)}`;
}

try {
  if (options.part === 'rate-limit' || options.part === 'all') await rateLimitPart();
  if (options.part === 'random-429' || options.part === 'all') await random429Part();
  if (options.part === 'full-pipe' || options.part === 'all') await fullPipePart();
} finally {
  await rm(folder, { recursive: true, force: true });
}
