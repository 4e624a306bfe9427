import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { ObjectStore } from '../ports/object-store.js';
import type { ChatMessage, JudgeCompletion } from './judge-client.js';

/**
 * The judge cache: content-addressed, so the same judgment is never paid for
 * twice, across engines, cases and runs. The key hashes everything that
 * changes the answer (the judge server's host, the model, the judge id and
 * version, the rendered messages, the temperature and the output schema) and
 * nothing secret: no API key, no full URL with credentials. Entries live in
 * the object store under `cache/judges/`, with an in-memory LRU in front.
 * Identical calls in flight are made once. Errors are never cached.
 */

export interface CacheKeyParts {
  readonly serverHost: string;
  readonly model: string;
  readonly judgeId: string;
  readonly judgeVersion: string;
  readonly messages: readonly ChatMessage[];
  readonly temperature: number;
  readonly outputSchema: unknown;
}

/** Bumped when the key's composition or the entry format changes. */
const CACHE_FORMAT = 'assay-judge-cache-v1';

export function cacheKey(parts: CacheKeyParts): string {
  const canonical = JSON.stringify([
    CACHE_FORMAT,
    parts.serverHost,
    parts.model,
    parts.judgeId,
    parts.judgeVersion,
    parts.messages.map((message) => [message.role, message.content]),
    parts.temperature,
    parts.outputSchema,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

const entrySchema = z.object({
  format: z.literal(CACHE_FORMAT),
  judge: z.string(),
  model: z.string(),
  output: z.unknown(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }),
});
type CacheEntry = z.infer<typeof entrySchema>;

export interface CachedCompletion {
  readonly completion: JudgeCompletion;
  /** True when no judge call was made for it (memory, store, or a call already in flight). */
  readonly cached: boolean;
}

export class JudgeCache {
  private readonly memory: LRUCache<string, CacheEntry>;
  private readonly inFlight = new Map<string, Promise<JudgeCompletion>>();

  /** `store` undefined turns persistence and the memory cache off (`--no-cache`); in-flight calls are still shared. */
  constructor(
    private readonly store: ObjectStore | undefined,
    memoryEntries = 10_000,
  ) {
    this.memory = new LRUCache({ max: memoryEntries });
  }

  async getOrCompute(
    key: string,
    identity: { judge: string; model: string },
    compute: () => Promise<JudgeCompletion>,
  ): Promise<CachedCompletion> {
    const remembered = this.store === undefined ? undefined : (this.memory.get(key) ?? (await this.read(key)));
    if (remembered !== undefined) {
      this.memory.set(key, remembered);
      return { completion: { ok: true, output: remembered.output, usage: { inputTokens: 0, outputTokens: 0 }, retries: 0 }, cached: true };
    }
    const running = this.inFlight.get(key);
    if (running !== undefined) return { completion: await running, cached: true };
    const call = compute();
    this.inFlight.set(key, call);
    try {
      const completion = await call;
      if (completion.ok && this.store !== undefined) {
        const entry: CacheEntry = { format: CACHE_FORMAT, ...identity, output: completion.output, usage: completion.usage };
        this.memory.set(key, entry);
        await this.store.put(storeKey(key), JSON.stringify(entry));
      }
      return { completion, cached: false };
    } finally {
      this.inFlight.delete(key);
    }
  }

  private async read(key: string): Promise<CacheEntry | undefined> {
    const bytes = await this.store?.get(storeKey(key));
    if (bytes === undefined) return undefined;
    // A corrupt or foreign entry is a miss, not a crash: the judgment is simply made again.
    try {
      const parsed = entrySchema.safeParse(JSON.parse(new TextDecoder().decode(bytes)));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }
}

function storeKey(key: string): string {
  return `cache/judges/${key.slice(0, 2)}/${key}.json`;
}
