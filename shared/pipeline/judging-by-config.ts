import { isDeepStrictEqual } from 'node:util';
import { callsJudges } from '../judges/default-judges.js';
import type { Judging } from './evaluate-case.js';
import type { EngineVariables } from './engine-secret.js';
import type { RunConfig } from './run-config.js';

/** The secrets a judging is built with. */
export interface JudgingSecrets {
  /** The judge key; undefined: none configured. */
  readonly apiKey: string | undefined;
  /** The engine secret's variables; undefined when the config has no live engines or no engine secret is configured. */
  readonly engineVariables: EngineVariables | undefined;
}

export interface JudgingByConfigOptions {
  /** The judge key as of now (undefined: none configured); a RefreshingSecret's read, on Lambda. Asked only for a config whose judges call a judge. */
  readonly judgeKey: () => Promise<string | undefined>;
  /** Whether a config whose judges call a judge needs the key (a provider that signs another way does not); default: it does. */
  readonly needsJudgeKey?: (config: RunConfig) => boolean;
  /** The engine secret's variables as of now; asked only for a config with live engines. Absent: no engine secret. */
  readonly engineVariables?: () => Promise<EngineVariables | undefined>;
  /** Builds the judging of a config with its secrets: the judge client, its cache, the selected judges and the live engines. */
  readonly build: (config: RunConfig, secrets: JudgingSecrets) => Judging;
  /** Called with a judging that was replaced (a secret changed), so its engines' pools can be closed once no case uses them. */
  readonly retire?: (judging: Judging) => void;
}

/**
 * `judgingFor` of a long-lived worker: one judging per config hash, so the
 * cases of a run share one judge client, its in-memory cache and its
 * in-flight deduplication, and one set of engines with their pools; rebuilt
 * when the judge key or the engine secret changes, so a rotated secret
 * reaches the judge client and the engines without a new container. A config
 * whose judges call no judge server is built without asking for the key. The
 * check and the build happen with no await between them, so the records of a
 * batch that ask at once get one judging.
 */
export function judgingByConfig(options: JudgingByConfigOptions): (config: RunConfig, configHash: string) => Promise<Judging> {
  const built = new Map<string, { readonly secrets: JudgingSecrets; readonly judging: Judging }>();
  // Per config hash, as the judging: selecting the judges for every case of a large run would add up.
  const needsKey = new Map<string, boolean>();
  return async (config, configHash) => {
    let keyNeeded = needsKey.get(configHash);
    if (keyNeeded === undefined) {
      keyNeeded = callsJudges(config) && (options.needsJudgeKey?.(config) ?? true);
      needsKey.set(configHash, keyNeeded);
    }
    // A run of ground-truth metrics and deterministic judges (or of Bedrock judges) needs no key: an empty or unreadable secret does not stop it.
    const apiKey = keyNeeded ? await options.judgeKey() : undefined;
    const hasEngines = config.engines !== undefined && config.engines.length > 0;
    const engineVariables = hasEngines && options.engineVariables !== undefined ? await options.engineVariables() : undefined;
    const secrets: JudgingSecrets = { apiKey, engineVariables };
    const existing = built.get(configHash);
    if (existing !== undefined && isDeepStrictEqual(existing.secrets, secrets)) return existing.judging;
    const judging = options.build(config, secrets);
    built.set(configHash, { secrets, judging });
    if (existing !== undefined) options.retire?.(existing.judging);
    return judging;
  };
}
