import { batchSettingsOf } from '../judge-client/batch-settings.js';
import type { JudgeEnvironment } from '../judge-client/judge-provider.js';
import { isLexicalJudge } from '../judges/lexical/lexical-judge.js';
import type { ConfigFile } from './config-schema.js';
import { selectJudges } from './judge-selection.js';

/**
 * What, in a run's config or environment, asks for an LLM judge: something
 * only an LLM judge can honour. Without the provider's key the offline
 * lexical judge stands in only where nothing asks for one; a run that asks
 * and has no key is refused (the CLI's usage error), so that a CI job that
 * lost its key never reports lexical numbers as if nothing had happened
 * (docs/judge-providers.md, "Without a key").
 *
 * Asking is naming which judge, where or how to call:
 * - batch judging (`judge.batch` turned on, or `--batch`, which turns it on);
 * - the provider, the model or the server: `judge.provider`, `judge.model`,
 *   `judge.base_url`, `judge.azure`, `judge.bedrock`, or a single judge's
 *   `model` or `base_url` in `judge_settings`;
 * - in the environment, which wins over the file: ASSAY_JUDGE_PROVIDER,
 *   ASSAY_JUDGE_MODEL, OPENAI_BASE_URL;
 * - a judge that only an LLM runs among the run's judges: one the `judges`
 *   list (or `--judges`) names that the lexical judge cannot approximate (a
 *   custom or decision-tree judge, a model variant `<id>@<model>`,
 *   `correctness`...), and, without a list, an ensemble, which runs by default.
 *
 * Settings of how a call is made (temperature, timeouts, retries, concurrency,
 * prices, rate limits, the cost ceiling) do not ask by themselves: they apply
 * once a judge is asked for. Whether the run makes any judge call at all is
 * the caller's to say (a run whose judges are all computed from the labels
 * needs no key, whatever the config names).
 */

export type LlmRequest =
  /** A key of the config, such as `judge.model` or `judge_settings.safety.base_url`. */
  | { readonly kind: 'setting'; readonly setting: string }
  /** A judge of the run that only an LLM runs. */
  | { readonly kind: 'judge'; readonly judge: string }
  | { readonly kind: 'environment'; readonly variable: 'ASSAY_JUDGE_PROVIDER' | 'ASSAY_JUDGE_MODEL' | 'OPENAI_BASE_URL' };

const JUDGE_SETTINGS = ['provider', 'model', 'base_url', 'azure', 'bedrock'] as const;
const SINGLE_JUDGE_SETTINGS = ['model', 'base_url'] as const;
const ENVIRONMENT = ['ASSAY_JUDGE_PROVIDER', 'ASSAY_JUDGE_MODEL', 'OPENAI_BASE_URL'] as const;

/** The first thing in `config` and `environment` that asks for an LLM judge, or undefined when nothing does. */
export function llmRequestOf(config: ConfigFile, environment: JudgeEnvironment): LlmRequest | undefined {
  if (batchSettingsOf(config.judge.batch) !== undefined) return { kind: 'setting', setting: 'judge.batch' };
  const named = JUDGE_SETTINGS.find((key) => config.judge[key] !== undefined);
  if (named !== undefined) return { kind: 'setting', setting: `judge.${named}` };
  for (const [id, settings] of Object.entries(config.judge_settings ?? {})) {
    const key = SINGLE_JUDGE_SETTINGS.find((candidate) => settings[candidate] !== undefined);
    if (key !== undefined) return { kind: 'setting', setting: `judge_settings.${id}.${key}` };
  }
  const judge = judgesOnlyAnLlmRuns(config)[0];
  if (judge !== undefined) return { kind: 'judge', judge };
  const variable = ENVIRONMENT.find((name) => (environment[name]?.trim() ?? '') !== '');
  return variable === undefined ? undefined : { kind: 'environment', variable };
}

/** The run's judges that the lexical judge cannot stand in for, by id. */
function judgesOnlyAnLlmRuns(config: ConfigFile): string[] {
  // Without a list the lexical judge runs what it can approximate of the default set; of what a config adds, only ensembles run by default.
  const judges = config.judges === undefined ? selectJudges(config).filter((judge) => judge.kind === 'ensemble') : selectJudges(config);
  return judges.filter((judge) => judge.kind !== 'deterministic' && !isLexicalJudge(judge.id)).map((judge) => judge.id);
}
