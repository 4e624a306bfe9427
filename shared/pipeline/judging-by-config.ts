import type { Judging } from './evaluate-case.js';
import type { RunConfig } from './run-config.js';

export interface JudgingByConfigOptions {
  /** The judge key as of now (undefined: none configured); a RefreshingSecret's read, on Lambda. */
  readonly judgeKey: () => Promise<string | undefined>;
  /** Builds the judging of a config with a key: the judge client, its cache and the selected judges. */
  readonly build: (config: RunConfig, apiKey: string | undefined) => Judging;
}

/**
 * `judgingFor` of a long-lived worker: one judging per config hash, so the
 * cases of a run share one judge client, its in-memory cache and its
 * in-flight deduplication, rebuilt when the judge key changes, so a rotated
 * key reaches the judge client without a new container. The check and the
 * build happen with no await between them, so the records of a batch that ask
 * at once get one judging.
 */
export function judgingByConfig(options: JudgingByConfigOptions): (config: RunConfig, configHash: string) => Promise<Judging> {
  const built = new Map<string, { readonly apiKey: string | undefined; readonly judging: Judging }>();
  return async (config, configHash) => {
    const apiKey = await options.judgeKey();
    const existing = built.get(configHash);
    if (existing !== undefined && existing.apiKey === apiKey) return existing.judging;
    const judging = options.build(config, apiKey);
    built.set(configHash, { apiKey, judging });
    return judging;
  };
}
