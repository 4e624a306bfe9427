import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { ObjectStore } from '../ports/object-store.js';
import { parseJsonWith } from '../schema/parse-json-with.js';
import type { JudgeCompletion } from '../judge-answers/judge-completion.js';
import type { JudgeProviderName } from './judge-provider-config.js';
import type { ChatMessage } from '../judge-answers/output-modes.js';
import { scrubSecrets } from '../secrets/scrub-secrets.js';

/**
 * The judge cache: content-addressed, so the same judgment is never paid for
 * twice, across engines, cases and runs. The key hashes everything that
 * changes the answer (the provider, the judge server's base URL, the model asked for, the
 * judge id and version, the rendered messages, the temperature, the output
 * schema and the sample number) and nothing secret: no API key, no user
 * info or query string of the URL. Each entry also keeps the model the server
 * said answered, for audit. Entries live in the object store under
 * `cache/judges/`, with an in-memory LRU in front. Identical calls in flight
 * are made once. Errors are never cached, and a failed write loses nothing
 * but the entry: the verdict is still returned.
 */

export interface CacheKeyParts {
  /** Where the judge runs. An OpenAI-compatible server's keys leave it out, so the entries stored before providers existed stay valid. */
  readonly provider: JudgeProviderName;
  /** The judge server without credentials (judge-transports.ts serverOf): gateways and Azure deployments differ by path, Bedrock by region. */
  readonly baseUrl: string;
  /** The model asked for: what the caller controls; the model that answered is kept in the entry. */
  readonly model: string;
  readonly judgeId: string;
  readonly judgeVersion: string;
  readonly messages: readonly ChatMessage[];
  readonly temperature: number;
  readonly outputSchema: unknown;
  /** Which sample of a judgment at temperature > 0 (0 for the first, and always 0 at temperature 0). */
  readonly sample: number;
}

/** Bumped when the key's composition or the entry format changes. */
const CACHE_FORMAT = 'assay-judge-cache-v2';

/** Scheme, host, port and path of a base URL: no user info, query or fragment, where credentials may hide; no trailing slash. */
export function canonicalBaseUrl(baseUrl: string | undefined): string {
  const url = new URL(baseUrl ?? 'https://api.openai.com/v1');
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

export function cacheKey(parts: CacheKeyParts): string {
  const canonical = JSON.stringify([
    CACHE_FORMAT,
    ...(parts.provider === 'openai' ? [] : [parts.provider]),
    parts.baseUrl,
    parts.model,
    parts.judgeId,
    parts.judgeVersion,
    parts.messages.map((message) => [message.role, message.content]),
    parts.temperature,
    parts.outputSchema,
    parts.sample,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

const entrySchema = z.object({
  format: z.literal(CACHE_FORMAT),
  judge: z.string(),
  model: z.string(),
  /** The model the server said answered, when it said one. */
  reported_model: z.string().optional(),
  output: z.unknown(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }),
});
type CacheEntry = z.infer<typeof entrySchema>;

export interface CachedCompletion {
  readonly completion: JudgeCompletion;
  /** True when no judge call was made for it (memory, store, or a call already in flight). */
  readonly cached: boolean;
  /**
   * True when an identical call already in flight answered it: the judgment is
   * shared in the run, not a cache hit (the cache may be off), and its outcome,
   * a failure included, is that call's.
   */
  readonly shared: boolean;
}

/** Called when an entry could not be stored; the judgment itself is still returned. */
export type CacheWriteFailure = (key: string, error: unknown) => void;

export class JudgeCache {
  private readonly memory: LRUCache<string, CacheEntry>;
  private readonly inFlight = new Map<string, Promise<JudgeCompletion>>();
  private failedWrites = 0;

  /** `store` undefined turns persistence and the memory cache off (`--no-cache`); in-flight calls are still shared. */
  constructor(
    private readonly store: ObjectStore | undefined,
    memoryEntries = 10_000,
    private readonly onWriteFailure: CacheWriteFailure = warnWriteFailure,
  ) {
    this.memory = new LRUCache({ max: memoryEntries });
  }

  /** Entries that could not be stored so far (each judgment was still returned). */
  get writeFailures(): number {
    return this.failedWrites;
  }

  async getOrCompute(
    key: string,
    identity: { judge: string; model: string },
    compute: () => Promise<JudgeCompletion>,
  ): Promise<CachedCompletion> {
    const remembered = this.store === undefined ? undefined : (this.memory.get(key) ?? (await this.read(key)));
    if (remembered !== undefined) {
      this.memory.set(key, remembered);
      const completion: JudgeCompletion = {
        ok: true,
        output: remembered.output,
        reportedModel: remembered.reported_model,
        usage: { inputTokens: 0, outputTokens: 0 },
        retries: 0,
        rateLimited: 0,
      };
      return { completion, cached: true, shared: false };
    }
    const running = this.inFlight.get(key);
    if (running !== undefined) return { completion: await running, cached: true, shared: true };
    const call = compute();
    this.inFlight.set(key, call);
    try {
      const completion = await call;
      if (completion.ok && this.store !== undefined) {
        const reported = completion.reportedModel === undefined ? {} : { reported_model: completion.reportedModel };
        const entry: CacheEntry = { format: CACHE_FORMAT, ...identity, ...reported, output: completion.output, usage: completion.usage };
        this.memory.set(key, entry);
        await this.write(key, entry);
      }
      return { completion, cached: false, shared: false };
    } finally {
      this.inFlight.delete(key);
    }
  }

  /** A paid judgment outlives a failed write: the failure is counted and reported, never thrown. */
  private async write(key: string, entry: CacheEntry): Promise<void> {
    try {
      await this.store?.put(storeKey(key), JSON.stringify(entry));
    } catch (error) {
      this.failedWrites++;
      this.onWriteFailure(key, error);
    }
  }

  private async read(key: string): Promise<CacheEntry | undefined> {
    const bytes = await this.store?.get(storeKey(key));
    if (bytes === undefined) return undefined;
    // A corrupt or foreign entry is a miss, not a crash: the judgment is simply made again.
    const parsed = parseJsonWith(entrySchema, bytes);
    return parsed.ok ? parsed.value : undefined;
  }
}

function storeKey(key: string): string {
  return `cache/judges/${key.slice(0, 2)}/${key}.json`;
}

function warnWriteFailure(key: string, error: unknown): void {
  const reason = scrubSecrets(error instanceof Error ? error.message : String(error));
  console.warn(`judge cache: could not store entry ${key.slice(0, 12)} (${reason}); the verdict is kept, the next run will judge it again`);
}
