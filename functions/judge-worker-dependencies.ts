import type { Engine } from '../shared/engines/engine.js';
import { providerNameOf } from '../shared/judge-client/judge-provider.js';
import { engineEnvironment } from '../shared/engines/engine-secret.js';
import type { Judging } from '../shared/worker/evaluate-case.js';
import { JudgeBudget } from '../shared/worker/judge-budget.js';
import { buildJudging, type JudgingPlace } from '../shared/worker/judging.js';
import { judgingByConfig, type JudgingFor } from '../shared/worker/judging-by-config.js';
import { ENGINE_DEADLINE_MS, EngineSetupError } from '../shared/worker/live-engines.js';
import type { RunConfig } from '../shared/config/index.js';
import { lambdaDependencies, lambdaJudgeEnvironment, type LambdaDependencies, type LambdaEnvironment } from './lambda-environment.js';
import { engineVariablesReader, judgeKeyReader } from './secret-readers.js';
import { deferTo } from '../shared/worker/rate-limit-deferral.js';
import type { RateShare } from '../shared/judge-rate/rate-limit-config.js';

/**
 * A replaced judging's engines are closed once the cases that took them
 * before the replacement are done with them: their engine calls end within
 * the engine deadline.
 */
export const RETIRED_ENGINES_CLOSE_AFTER_MS = 2 * ENGINE_DEADLINE_MS;

export interface JudgeWorkerDependencies extends LambdaDependencies {
  /** Judging for a run's config, one per config hash, rebuilt when the judge key or the engine secret changes. */
  readonly judgingFor: JudgingFor;
}

let dependencies: Promise<JudgeWorkerDependencies> | undefined;

/**
 * The judge worker's dependencies: the container's, plus its judging. The
 * judge key and the engine secret are read from Secrets Manager only here
 * (secret-readers.ts), on the first judgment that needs them, then again
 * once SECRET_MAX_AGE_MS old or after a failed read; neither is ever put in
 * the environment. The judge key is read only for a run whose judges call a
 * judge on a provider with keys (not Bedrock), the engine secret only for a
 * run whose config has live engines.
 */
export function judgeWorkerDependencies(): Promise<JudgeWorkerDependencies> {
  dependencies ??= lambdaDependencies().then((shared) => ({
    ...shared,
    judgingFor: lambdaJudgingFor(shared),
    defer: deferTo(shared.cases),
  }));
  return dependencies;
}

function lambdaJudgingFor({ environment, store, telemetry }: LambdaDependencies): JudgeWorkerDependencies['judgingFor'] {
  const engineSecretArn = environment.ASSAY_ENGINE_SECRET_ARN;
  // One budget for the container, kept across rebuilt judgings: its spend file holds everything this container judged.
  const budget = new JudgeBudget(store);
  return judgingByConfig({
    judgeKey: judgeKeyReader(environment.ASSAY_JUDGE_SECRET_ARN),
    // Bedrock judges sign with the function's role: a suite judged there never reads the judge secret.
    needsJudgeKey: (config) => {
      const provider = providerNameOf(config.judge, lambdaJudgeEnvironment(environment, undefined));
      return !provider.ok || provider.value !== 'bedrock';
    },
    ...(engineSecretArn === undefined ? {} : { engineVariables: engineVariablesReader(engineSecretArn) }),
    // The same judging as `assay run` builds from the same config (buildJudging), with this container's keys, cache and rate share.
    build: (config, { apiKey, engineVariables }): Judging =>
      lambdaJudging(
        config,
        {
          environment: lambdaJudgeEnvironment(environment, apiKey),
          cacheStore: store,
          runStore: store,
          engineEnvironment: engineEnvironment(process.env, engineVariables),
          budget,
          share: rateShareOf(environment),
        },
        environment,
      ),
    retire: (judging) => {
      const engines = judging.engines ?? [];
      if (engines.length === 0) return;
      setTimeout(() => {
        closeEngines(engines).catch((error: unknown) =>
          telemetry.logger.warn('could not close the engines of a replaced judging', { error: String(error) }),
        );
      }, RETIRED_ENGINES_CLOSE_AFTER_MS).unref();
    },
  });
}

/** This container's part of the judge account's rate, as the stack sets it (infra/judge-workers.ts). */
function rateShareOf(environment: LambdaEnvironment): RateShare {
  return {
    workers: environment.ASSAY_JUDGE_WORKERS ?? 1,
    limits: { requestsPerMinute: environment.ASSAY_JUDGE_REQUESTS_PER_MINUTE, tokensPerMinute: environment.ASSAY_JUDGE_TOKENS_PER_MINUTE },
  };
}

/** The run's judging; a variable its engines lack is named with where it goes on AWS. */
function lambdaJudging(config: RunConfig, place: JudgingPlace, environment: LambdaEnvironment): Judging {
  try {
    return buildJudging(config, place);
  } catch (error) {
    if (!(error instanceof EngineSetupError)) throw error;
    const where =
      environment.ASSAY_ENGINE_SECRET_ARN === undefined
        ? 'on AWS, put engine variables in a secret and deploy with -c engineSecretArn=<its ARN>'
        : `on AWS, add them to the engine secret ${environment.ASSAY_ENGINE_SECRET_ARN}`;
    throw new EngineSetupError(`${error.message} (${where})`);
  }
}

async function closeEngines(engines: readonly Engine[]): Promise<void> {
  const closed = await Promise.allSettled(engines.map((engine) => engine.close()));
  const failed = closed.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
  if (failed.length > 0) throw new AggregateError(failed, `${failed.length} of ${engines.length} engines could not be closed`);
}
