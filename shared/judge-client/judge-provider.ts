import type { BedrockHttpVersion } from './bedrock-http-version.js';
import type { AzureDeployment } from './judge-client.js';
import { JUDGE_PROVIDERS, type JudgeProviderName } from './judge-provider-config.js';
import type { Result } from '../schema/result.js';

/**
 * The judge provider of a run as the environment and the config file give it
 * together. The environment wins over the file, as for the model and the base
 * URL, so a CI job or a deployed stack can move a committed config to another
 * provider: ASSAY_JUDGE_PROVIDER over `judge.provider`, ASSAY_JUDGE_MODEL over
 * the file's model (`judge.model`, or `judge.bedrock.model_id`). Keys come only
 * from the environment: OPENAI_API_KEY for openai, AZURE_OPENAI_API_KEY for
 * azure; without one the offline lexical judge runs and says why, where
 * nothing asked for an LLM judge (shared/config/llm-request.ts). Bedrock
 * needs no key: it signs with the AWS credential chain, its region from
 * `judge.bedrock.region`, else AWS_REGION (a Lambda function's own).
 */

export const DEFAULT_JUDGE_MODEL = 'gpt-4o-mini';

export interface JudgeEnvironment {
  readonly OPENAI_BASE_URL?: string | undefined;
  readonly OPENAI_API_KEY?: string | undefined;
  readonly ASSAY_JUDGE_MODEL?: string | undefined;
  readonly ASSAY_JUDGE_PROVIDER?: string | undefined;
  readonly AZURE_OPENAI_API_KEY?: string | undefined;
  readonly AWS_REGION?: string | undefined;
  readonly AWS_DEFAULT_REGION?: string | undefined;
  /** Where Bedrock batch jobs read and write, and the role they run as: a deployed stack's, over judge.batch.bedrock. */
  readonly ASSAY_BEDROCK_BATCH_S3_URI?: string | undefined;
  readonly ASSAY_BEDROCK_BATCH_ROLE_ARN?: string | undefined;
}

/** The variables the judges read, taken from `variables` (process.env), and nothing else. */
export function judgeEnvironmentOf(variables: Readonly<Record<string, string | undefined>>): JudgeEnvironment {
  const names = [
    'OPENAI_BASE_URL',
    'OPENAI_API_KEY',
    'ASSAY_JUDGE_MODEL',
    'ASSAY_JUDGE_PROVIDER',
    'AZURE_OPENAI_API_KEY',
    'AWS_REGION',
    'AWS_DEFAULT_REGION',
    'ASSAY_BEDROCK_BATCH_S3_URI',
    'ASSAY_BEDROCK_BATCH_ROLE_ARN',
  ] as const;
  return Object.fromEntries(names.flatMap((name) => (variables[name] === undefined ? [] : [[name, variables[name]]])));
}

export type JudgeProvider =
  | { readonly kind: 'openai'; readonly baseUrl: string | undefined; readonly apiKey: string }
  | { readonly kind: 'azure'; readonly azure: AzureDeployment; readonly apiKey: string }
  /** `httpVersion`: judge.bedrock.http_version; undefined: by the endpoint's scheme. */
  | {
      readonly kind: 'bedrock';
      readonly region: string;
      readonly endpoint: string | undefined;
      readonly httpVersion?: BedrockHttpVersion | undefined;
    };

/** The environment variables that hold a judge provider's key. */
export type JudgeKeyVariable = 'OPENAI_API_KEY' | 'AZURE_OPENAI_API_KEY';

/**
 * Which judge the settings make. Not a Result: besides a provider and a
 * usage error there is a third answer, the lexical judge for want of a key,
 * which is no failure unless an LLM judge was asked for.
 */
export type ProviderChoice =
  | { readonly ok: true; readonly provider: JudgeProvider; readonly model: string }
  /**
   * No key for the provider (`variable`): the lexical judge runs, for this
   * reason, unless something asked for an LLM judge (shared/config/llm-request.ts),
   * which the CLI refuses before any work.
   */
  | { readonly ok: false; readonly lexical: string; readonly variable: JudgeKeyVariable }
  /** The settings cannot make a judge: a usage error. */
  | { readonly ok: false; readonly error: string };

interface JudgeSection {
  readonly provider?: JudgeProviderName | undefined;
  readonly base_url?: string | undefined;
  readonly model?: string | undefined;
  readonly azure?: { readonly endpoint: string; readonly deployment: string; readonly api_version: string } | undefined;
  readonly bedrock?:
    | {
        readonly region: string;
        readonly model_id: string;
        readonly endpoint?: string | undefined;
        readonly http_version?: BedrockHttpVersion | undefined;
      }
    | undefined;
}

/** The provider's name: ASSAY_JUDGE_PROVIDER, else the file's, else openai; an unknown name in the environment is an error. */
export function providerNameOf(judge: JudgeSection, environment: JudgeEnvironment): Result<JudgeProviderName> {
  const fromEnvironment = nonEmpty(environment.ASSAY_JUDGE_PROVIDER);
  if (fromEnvironment === undefined) return { ok: true, value: judge.provider ?? 'openai' };
  const known = JUDGE_PROVIDERS.find((name) => name === fromEnvironment);
  if (known !== undefined) return { ok: true, value: known };
  // The value is shown: a provider's name is no secret, and a typo is found by seeing it.
  return { ok: false, error: `ASSAY_JUDGE_PROVIDER is "${fromEnvironment}"; expected one of ${JUDGE_PROVIDERS.join(', ')}` };
}

/** The run's default model: ASSAY_JUDGE_MODEL, else the file's (judge.model, or judge.bedrock.model_id), else gpt-4o-mini except on Bedrock, which has no default. */
export function defaultModelOf(judge: JudgeSection, environment: JudgeEnvironment, provider: JudgeProviderName): string | undefined {
  const fromFile = judge.model ?? judge.bedrock?.model_id;
  return nonEmpty(environment.ASSAY_JUDGE_MODEL) ?? fromFile ?? (provider === 'bedrock' ? undefined : DEFAULT_JUDGE_MODEL);
}

export function chooseProvider(judge: JudgeSection, environment: JudgeEnvironment): ProviderChoice {
  const name = providerNameOf(judge, environment);
  if (!name.ok) return name;
  const model = defaultModelOf(judge, environment, name.value);
  if (name.value === 'openai') {
    const apiKey = nonEmpty(environment.OPENAI_API_KEY);
    if (apiKey === undefined) return { ok: false, lexical: 'OPENAI_API_KEY is not set', variable: 'OPENAI_API_KEY' };
    return {
      ok: true,
      provider: { kind: 'openai', baseUrl: nonEmpty(environment.OPENAI_BASE_URL) ?? judge.base_url, apiKey },
      model: model ?? DEFAULT_JUDGE_MODEL,
    };
  }
  if (name.value === 'azure') {
    if (judge.azure === undefined)
      return {
        ok: false,
        error: 'the judge provider is azure, and the config has no judge.azure: give it {endpoint, deployment, api_version}',
      };
    const apiKey = nonEmpty(environment.AZURE_OPENAI_API_KEY);
    if (apiKey === undefined) return { ok: false, lexical: 'AZURE_OPENAI_API_KEY is not set', variable: 'AZURE_OPENAI_API_KEY' };
    const azure = { endpoint: judge.azure.endpoint, deployment: judge.azure.deployment, apiVersion: judge.azure.api_version };
    return { ok: true, provider: { kind: 'azure', azure, apiKey }, model: model ?? DEFAULT_JUDGE_MODEL };
  }
  const region = judge.bedrock?.region ?? nonEmpty(environment.AWS_REGION) ?? nonEmpty(environment.AWS_DEFAULT_REGION);
  if (region === undefined)
    return { ok: false, error: 'the judge provider is bedrock, and no region is given: set judge.bedrock.region, or AWS_REGION' };
  if (model === undefined)
    return { ok: false, error: 'the judge provider is bedrock, and no model is given: set judge.bedrock.model_id, or ASSAY_JUDGE_MODEL' };
  return {
    ok: true,
    provider: { kind: 'bedrock', region, endpoint: judge.bedrock?.endpoint, httpVersion: judge.bedrock?.http_version },
    model,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
