import { judgingByConfig, type JudgingFor } from '../../shared/worker/judging-by-config.js';
import { buildJudging, type JudgingPlace } from '../../shared/worker/judging.js';
import type { Judging } from '../../shared/worker/evaluate-case.js';

export interface RunJudging {
  /** Judging (judges, backend, live engines) for a run's stored config, built once per config hash. */
  readonly judgingFor: JudgingFor;
  /** Closes the live engines built so far (database pools). */
  close(): Promise<void>;
}

/**
 * Judging for whatever run a case message belongs to, built from that run's
 * stored config at this place (buildJudging) and kept per config hash
 * (judgingByConfig), as the deployed worker does: a process that shares its
 * queues with other runs judges their cases with their judges and asks their
 * engines. `known` seeds the runs this process already built judging for
 * (its own), so their usage counters stay the ones it reports. The keys are
 * in the place's environment: nothing is read from a secret store.
 */
export function judgingForRuns(
  place: JudgingPlace,
  known: readonly { readonly configHash: string; readonly judging: Judging }[] = [],
): RunJudging {
  const judgingFor = judgingByConfig({ build: (config) => buildJudging(config, place), known });
  return {
    judgingFor,
    async close() {
      await Promise.all(judgingFor.judgings().flatMap((judging) => (judging.engines ?? []).map((engine) => engine.close())));
    },
  };
}
