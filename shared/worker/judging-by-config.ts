import { isDeepStrictEqual } from 'node:util';
import { callsJudges, type RunConfig } from '../config/index.js';
import type { Judging } from './evaluate-case.js';
import type { EngineVariables } from '../engines/engine-secret.js';

/** The secrets a judging is built with. */
export interface JudgingSecrets {
  /** The judge key; undefined: none configured, or the place's environment holds it (the CLI). */
  readonly apiKey: string | undefined;
  /** The engine secret's variables; undefined when the config has no live engines or no engine secret is configured. */
  readonly engineVariables: EngineVariables | undefined;
}

export interface JudgingByConfigOptions {
  /** The judge key as of now (undefined: none configured); a RefreshingSecret's read, on Lambda. Asked only for a config whose judges call a judge. Absent: the key is not read here (the CLI's is in its environment). */
  readonly judgeKey?: () => Promise<string | undefined>;
  /** Whether a config whose judges call a judge needs the key (a provider that signs another way does not); default: it does. */
  readonly needsJudgeKey?: (config: RunConfig) => boolean;
  /** The engine secret's variables as of now; asked only for a config with live engines. Absent: no engine secret. */
  readonly engineVariables?: () => Promise<EngineVariables | undefined>;
  /** Builds the judging of a config with its secrets: buildJudging (judging.ts) at the place it runs. */
  readonly build: (config: RunConfig, secrets: JudgingSecrets) => Judging;
  /** Called with a judging that was replaced (a secret changed), so its engines' pools can be closed once no case uses them. */
  readonly retire?: (judging: Judging) => void;
  /** Judgings built already, by config hash: a CLI run builds its own before ingest, to show its judge line and progress. */
  readonly known?: readonly { readonly configHash: string; readonly judging: Judging }[];
}

/** judgingFor, and the judgings it holds now (to close their engines when the process is done). */
export type JudgingFor = ((config: RunConfig, configHash: string) => Promise<Judging>) & { judgings(): Judging[] };

const NO_SECRETS: JudgingSecrets = { apiKey: undefined, engineVariables: undefined };

/**
 * The one cache of judging by config hash, for every long-lived worker (the
 * deployed judge worker, `assay run`, `resume` and `redrive`, each pipeline
 * thread): the cases of a run share one judge client, its in-memory cache
 * and its in-flight deduplication, and one set of engines with their pools,
 * and a process that shares its queues with other runs judges their cases
 * with their own config. A judging is rebuilt when the judge key or the
 * engine secret changes, so a rotated secret reaches the judge client and the
 * engines without a new container. A config whose judges call no judge
 * server is built without asking for the key. The check and the build happen
 * with no await between them, so the records of a batch that ask at once get
 * one judging.
 */
export function judgingByConfig(options: JudgingByConfigOptions): JudgingFor {
  const built = new Map<string, { readonly secrets: JudgingSecrets; readonly judging: Judging }>(
    (options.known ?? []).map((entry) => [entry.configHash, { secrets: NO_SECRETS, judging: entry.judging }]),
  );
  // Per config hash, as the judging: selecting the judges for every case of a large run would add up.
  const needsKey = new Map<string, boolean>();
  const judgingFor = async (config: RunConfig, configHash: string): Promise<Judging> => {
    let keyNeeded = needsKey.get(configHash);
    if (keyNeeded === undefined) {
      keyNeeded = options.judgeKey !== undefined && callsJudges(config) && (options.needsJudgeKey?.(config) ?? true);
      needsKey.set(configHash, keyNeeded);
    }
    // A run of ground-truth metrics and deterministic judges (or of Bedrock judges) needs no key: an empty or unreadable secret does not stop it.
    const apiKey = keyNeeded && options.judgeKey !== undefined ? await options.judgeKey() : undefined;
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
  return Object.assign(judgingFor, { judgings: () => [...built.values()].map((entry) => entry.judging) });
}
