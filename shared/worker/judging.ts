import { judgesForRun, type RunConfig } from '../config/index.js';
import type { Environment } from '../engines/create-engine.js';
import { chooseJudgeBackend, judgeBackendKind, type JudgeEnvironment } from '../scoring/judge-backend.js';
import type { RateShare } from '../judge-rate/rate-limit-config.js';
import type { ObjectStore } from '../ports/object-store.js';
import type { Judging } from './evaluate-case.js';
import type { JudgeBudget } from './judge-budget.js';
import { buildLiveEngines } from './live-engines.js';

/** Where a judging is built: the same config gives the same judges anywhere, and the place gives the keys, the cache and the limits. */
export interface JudgingPlace {
  /** The judge provider's settings and key (judge-provider.ts). */
  readonly environment: JudgeEnvironment;
  /** Where the judge cache lives (`cache/judges/`); undefined turns it off (`--no-cache`). */
  readonly cacheStore: ObjectStore | undefined;
  /** Where the runs live: a batch-judged run's judgments read the answers of its jobs there. */
  readonly runStore?: ObjectStore;
  /** Where live engines read their credentials (`{{env.NAME}}`, postgres' connection_env). */
  readonly engineEnvironment: Environment;
  /** This worker's side of run.max_judge_cost; without it the ceiling is not enforced here. */
  readonly budget?: JudgeBudget;
  /** This worker's part of the judge account's rate (a deployed worker's container). */
  readonly share?: RateShare;
}

export interface BuiltJudging extends Judging {
  /** The judge line of logs and reports: which judge, where; never the key. */
  readonly summary: string;
  /** Judges of the catalog the lexical judge cannot approximate, left out of a run without a config list. */
  readonly skippedJudges: readonly string[];
}

/**
 * The one way a run's judging is built, from its parsed config, by `assay
 * run`, `resume` and `redrive`, the pipeline threads and the deployed judge
 * worker alike: the judges its config lists (or the default set of its
 * backend: default-judges.ts), the judge backend its `judge:` section and the
 * place give, and its live engines. Throws JudgeSetupError (a provider
 * without what it needs) or EngineSetupError (an engine without its
 * variables); the caller says where to fix it.
 */
export function buildJudging(config: RunConfig, place: JudgingPlace): BuiltJudging {
  const { judges, skippedJudges } = judgesForRun(config, judgeBackendKind(config.judge, place.environment));
  const { backend, summary } = chooseJudgeBackend(config, place.environment, place.cacheStore, place.share, judges, place.runStore);
  return {
    backend,
    judges,
    engines: buildLiveEngines(config.engines, place.engineEnvironment, config.run.engine_concurrency),
    ...(place.budget === undefined ? {} : { budget: place.budget }),
    summary,
    skippedJudges,
  };
}

/**
 * Whether a run's judging asks a model: an LLM backend with a judge that is
 * not deterministic. A run that asks none has no batch job to make
 * (cli/run/batch-judging-drive.ts), and, with no live engine either, is
 * judged on the embedded run's threads (cli/threads/pipeline-threads.ts).
 */
export function callsModel(judging: Judging): boolean {
  return judging.backend.kind === 'llm' && judging.judges.some((judge) => judge.kind !== 'deterministic');
}
