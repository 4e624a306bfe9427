import type { Environment } from '../../shared/engines/create-engine.js';
import { judgesForRun } from '../../shared/judges/default-judges.js';
import { chooseJudgeBackend, type JudgeEnvironment } from '../../shared/judges/judge-settings.js';
import type { Judging } from '../../shared/pipeline/evaluate-case.js';
import type { JudgeBudget } from '../../shared/pipeline/judge-budget.js';
import { buildLiveEngines } from '../../shared/pipeline/live-engines.js';
import type { RunConfig } from '../../shared/pipeline/run-config.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';

export interface RunJudging {
  /** Judging (judges, backend, live engines) for a run's stored config, built once per config hash. */
  judgingFor(config: RunConfig, configHash: string): Judging;
  /** Closes the live engines built so far (database pools). */
  close(): Promise<void>;
}

/**
 * Judging for whatever run a case message belongs to, built from that run's
 * stored config and kept per config hash, as the deployed worker does: a
 * process that shares its queues with other runs judges their cases with
 * their judges and asks their engines. `known` seeds the runs this process
 * already built judging for (its own), so their usage counters stay the ones
 * it reports. Live engines read their credentials from `engineEnvironment`;
 * `budget`, this process's side of run.max_judge_cost, is shared by every run's judging.
 */
export function judgingForRuns(
  environment: JudgeEnvironment,
  cacheStore: ObjectStore | undefined,
  engineEnvironment: Environment,
  known: readonly { readonly configHash: string; readonly judging: Judging }[] = [],
  budget?: JudgeBudget,
): RunJudging {
  const byConfig = new Map<string, Judging>(known.map((entry) => [entry.configHash, entry.judging]));
  return {
    judgingFor(config, configHash) {
      let judging = byConfig.get(configHash);
      if (judging === undefined) {
        judging = buildJudging(config, environment, cacheStore, engineEnvironment, budget);
        byConfig.set(configHash, judging);
      }
      return judging;
    },
    async close() {
      await Promise.all([...byConfig.values()].flatMap((judging) => (judging.engines ?? []).map((engine) => engine.close())));
    },
  };
}

/** A run config's judging: the judge backend, the judges it lists, and its live engines. */
export function buildJudging(
  config: RunConfig,
  environment: JudgeEnvironment,
  cacheStore: ObjectStore | undefined,
  engineEnvironment: Environment,
  budget?: JudgeBudget,
): Judging {
  const { backend } = chooseJudgeBackend(config, environment, cacheStore);
  return {
    backend,
    judges: judgesForRun(config, backend.kind).judges,
    engines: buildLiveEngines(config.engines, engineEnvironment, config.run.engine_concurrency),
    ...(budget === undefined ? {} : { budget }),
  };
}
