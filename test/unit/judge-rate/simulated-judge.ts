import { RateGovernor, type AttemptOutcome, type RateLimits } from '../../../shared/judge-rate/rate-governor.js';
import { seededRandom } from '../../../shared/statistics/seeded-random.js';
import { ManualClock } from '../../support/manual-clock.js';
import { RequestWindow, type RequestAdmission, type RequestLimit } from '../../support/request-window.js';
import { TokenBucket, type TokenBucketLimit } from '../../support/token-bucket.js';

/**
 * A judge server and the calls of a run, simulated on a manual clock, with
 * the real rate governor between them: what a run of thousands of
 * judgments at a rate limit does to the governor, in milliseconds of test
 * time. The server admits requests as the test judge server does
 * (request-window.ts: a sliding window, or token-bucket.ts: a token bucket;
 * 429 at once past either), refuses at
 * random after its latency as an overloaded gateway does (429 with
 * retry-after-ms and no quota headers), and fails at random with 500s,
 * which the caller retries after the same wait as the openai SDK would. A
 * refused attempt is sent again at once, through the governor, as the
 * judge client's fetch does.
 */
export interface SimulatedJudge {
  readonly latencyMs: number;
  readonly limit?: RequestLimit;
  /** A token bucket instead of the sliding window (token-bucket.ts). */
  readonly bucket?: TokenBucketLimit;
  /** Shares of requests refused (429) and failed (500) at random, from a seeded random. */
  readonly refusedAtRandom?: number;
  readonly failedAtRandom?: number;
  /** Sent as retry-after-ms with the random 429s and 500s; default 50. */
  readonly retryAfterMs?: number;
  readonly seed?: number;
  /** Headers sent with every refusal on top of the limit's own: what a server says of a quota it does not keep. */
  readonly refusalHeaders?: Readonly<Record<string, string>>;
  /** The limit, the random refusals and the failures stop at this time (ms of the run). */
  readonly faultsUntilMs?: number;
  /** Each request reaches the server, and its answer the caller, up to this much later (at random): the network and event loops. */
  readonly jitterMs?: number;
}

export interface SimulatedRun {
  /** From the first attempt to the last answer. */
  readonly tookMs: number;
  readonly attempts: number;
  /** Attempts refused (429), by the limit or at random. */
  readonly refused: number;
  /** When each refusal came (ms of the run). */
  readonly refusedAt: readonly number[];
  /** Judgments answered. */
  readonly answered: number;
  /** The requests pace in force (per minute) after each settled attempt, with its time. */
  readonly paces: readonly { readonly at: number; readonly perMinute: number | undefined }[];
  readonly governor: RateGovernor;
}

export interface SimulationOptions {
  readonly judge: SimulatedJudge;
  readonly judgments: number;
  readonly concurrency: number;
  readonly limits?: RateLimits;
}

/** Runs `judgments` judgments, `concurrency` at a time, until every one is answered (or 30 minutes of test time pass). */
export async function simulateRun(options: SimulationOptions): Promise<SimulatedRun> {
  const { judge, judgments, concurrency } = options;
  const clock = new ManualClock();
  const governor = new RateGovernor({ maxInFlight: concurrency, maxHoldMs: 30_000, clock, limits: options.limits });
  const now = (): number => clock.now();
  const window: RequestAdmission | undefined =
    judge.limit !== undefined
      ? new RequestWindow(judge.limit, now)
      : judge.bucket !== undefined
        ? new TokenBucket(judge.bucket, now)
        : undefined;
  const random = seededRandom(judge.seed ?? 1);
  const draw = (): number => random.nextUint32() / 2 ** 32;
  const retryAfterMs = judge.retryAfterMs ?? 50;
  const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => clock.after(milliseconds, resolve));
  const paces: { at: number; perMinute: number | undefined }[] = [];
  let attempts = 0;
  const refusedAt: number[] = [];
  let answered = 0;
  let lastAnswerAt = 0;

  async function attempt(): Promise<AttemptOutcome> {
    attempts++;
    const jitter = judge.jitterMs ?? 0;
    const [arrivalDraw, answerDraw] = [draw(), draw()];
    if (jitter > 0) await sleep(arrivalDraw * jitter);
    const faulty = clock.now() < (judge.faultsUntilMs ?? Number.POSITIVE_INFINITY);
    const admission = faulty ? window?.admit() : undefined;
    if (admission !== undefined && !admission.admitted) {
      return {
        status: 429,
        rateLimited: true,
        headers: new Headers({ ...admission.headers, ...judge.refusalHeaders, 'retry-after-ms': String(admission.waitMs) }),
      };
    }
    const [refusalDraw, failureDraw] = [draw(), draw()];
    await sleep(judge.latencyMs + answerDraw * jitter);
    if (faulty && refusalDraw < (judge.refusedAtRandom ?? 0))
      return { status: 429, rateLimited: true, headers: new Headers({ ...judge.refusalHeaders, 'retry-after-ms': String(retryAfterMs) }) };
    if (faulty && failureDraw < (judge.failedAtRandom ?? 0))
      return { status: 500, headers: new Headers({ 'retry-after-ms': String(retryAfterMs) }) };
    return { status: 200, headers: new Headers((faulty ? window?.headers() : undefined) ?? {}) };
  }

  let next = 0;
  async function worker(): Promise<void> {
    while (next < judgments) {
      next++;
      for (;;) {
        const permit = await governor.acquire(100);
        const outcome = await attempt();
        permit.done(outcome);
        paces.push({ at: clock.now(), perMinute: governor.state().requestsPerMinute });
        if (outcome.status === 200) break;
        if (outcome.status === 429) refusedAt.push(clock.now());
        else await sleep(retryAfterMs);
      }
      answered++;
      lastAnswerAt = clock.now();
    }
  }

  const workers = Promise.all(Array.from({ length: concurrency }, () => worker()));
  while (answered < judgments && clock.now() < 30 * 60_000) await clock.advance(100);
  if (answered < judgments) throw new Error(`The simulated run answered ${answered} of ${judgments} judgments in 30 minutes`);
  await workers;
  return { tookMs: lastAnswerAt, attempts, refused: refusedAt.length, refusedAt, answered, paces, governor };
}
