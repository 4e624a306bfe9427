import { inputErrorLine } from '../schema/input-error-line.js';
import { judgesForRun } from './default-judges.js';
import type { ConfigFile } from './config-schema.js';
import { DEFAULT_JUDGE_MODEL, defaultModelOf, providerNameOf } from '../judge-client/judge-provider.js';

/**
 * The models a run's LLM judges ask, each with the first judge that asks it:
 * a judge's own model (`judge_settings`, its own entry, a `judge@model`
 * variant), else the run's default (`ASSAY_JUDGE_MODEL`, then `judge.model` or
 * `judge.bedrock.model_id`, then gpt-4o-mini but on Bedrock).
 */
export function modelsOfRun(config: ConfigFile, environment: ModelEnvironment | undefined): Map<string, string> {
  // Without the environment, the run's default model is known only when the config sets it.
  const provider = environment === undefined ? undefined : providerNameOf(config.judge, environment);
  const defaultModel =
    environment === undefined || provider === undefined || !provider.ok
      ? (config.judge.model ?? config.judge.bedrock?.model_id)
      : defaultModelOf(config.judge, environment, provider.value);
  const models = new Map<string, string>();
  for (const judge of judgesForRun(config, 'llm').judges) {
    if (judge.kind !== 'llm' && judge.kind !== 'dag') continue;
    const model = judge.client?.model ?? defaultModel;
    if (model !== undefined && !models.has(model)) models.set(model, judge.id);
  }
  return models;
}

/** Where a run starts: ASSAY_JUDGE_MODEL there replaces the config's default model, ASSAY_JUDGE_PROVIDER its provider. */
export interface ModelEnvironment {
  readonly ASSAY_JUDGE_MODEL?: string | undefined;
  readonly ASSAY_JUDGE_PROVIDER?: string | undefined;
}

/**
 * `run.max_judge_cost` needs a price for every model the run's judges ask:
 * without one the spend could not be told, and the ceiling would never stop
 * anything. Without `environment` (the config file checked on its own) the
 * models the config names are checked; with it (`assay run`, where the run
 * starts) the run's default model too, ASSAY_JUDGE_MODEL or gpt-4o-mini.
 */
export function checkJudgeCeiling(config: ConfigFile, file: string, environment?: ModelEnvironment): string[] {
  if (config.run.max_judge_cost === undefined) return [];
  const environmentModel = nonEmpty(environment?.ASSAY_JUDGE_MODEL);
  const models = modelsOfRun(config, environment);
  const example = [...(models.size === 0 ? [DEFAULT_JUDGE_MODEL] : models.keys())]
    .map((model) => `${model}: {input_per_million: ..., output_per_million: ...}`)
    .join(', ');
  if (config.judge.prices === undefined) {
    return [
      inputErrorLine(
        file,
        '"run.max_judge_cost"',
        'needs judge.prices to tell what the judges spend',
        `add judge.prices: {currency: USD, models: {${example}}}, or remove run.max_judge_cost`,
      ),
    ];
  }
  const prices = config.judge.prices.models;
  return [...models]
    .filter(([model]) => !Object.hasOwn(prices, model))
    .map(([model, judgeId]) => {
      const from = environmentModel === model ? ', the model ASSAY_JUDGE_MODEL sets' : '';
      return inputErrorLine(
        file,
        '"judge.prices.models"',
        `has no price for the model "${model}" (asked by judge "${judgeId}"${from}), so run.max_judge_cost cannot count its spend`,
        `add ${model}: {input_per_million: ..., output_per_million: ...} with its provider's prices, or remove run.max_judge_cost`,
      );
    });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
