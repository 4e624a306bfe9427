import { judgesForRun } from '../../shared/judges/default-judges.js';
import { chooseJudgeBackend, type JudgeEnvironment } from '../../shared/judges/judge-settings.js';
import type { Judging } from '../../shared/pipeline/evaluate-case.js';
import type { RunConfig } from '../../shared/pipeline/run-config.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';

/**
 * Judging for whatever run a case message belongs to, built from that run's
 * stored config and kept per config hash, as the deployed worker does: a
 * process that shares its queues with other runs judges their cases with
 * their judges. `known` seeds the runs this process already built judging
 * for (its own), so their usage counters stay the ones it reports.
 */
export function judgingForRuns(
  environment: JudgeEnvironment,
  cacheStore: ObjectStore | undefined,
  known: readonly { readonly configHash: string; readonly judging: Judging }[] = [],
): (config: RunConfig, configHash: string) => Judging {
  const byConfig = new Map<string, Judging>(known.map((entry) => [entry.configHash, entry.judging]));
  return (config: RunConfig, configHash: string): Judging => {
    let judging = byConfig.get(configHash);
    if (judging === undefined) {
      const { backend } = chooseJudgeBackend(config, environment, cacheStore);
      judging = { backend, judges: judgesForRun(config, backend.kind).judges };
      byConfig.set(configHash, judging);
    }
    return judging;
  };
}
