import { z } from 'zod';
import { inputErrorLine } from '../schema/input-error-line.js';
import { BEDROCK_HTTP_VERSIONS } from './bedrock-http-version.js';
import { judgeBaseUrlSchema, serverUrlSchema } from './judge-base-url.js';
import type { JudgeOverrides } from './judge-overrides.js';

/**
 * Where the judges run, in the config file's `judge:` section:
 *
 * - `provider: openai` (the default): any OpenAI-compatible server,
 *   `base_url` and the key in OPENAI_API_KEY;
 * - `provider: azure` with `azure: {endpoint, deployment, api_version}`: an
 *   Azure OpenAI deployment, the key in AZURE_OPENAI_API_KEY;
 * - `provider: bedrock` with `bedrock: {region, model_id, endpoint?,
 *   http_version?}`: Amazon Bedrock's Converse API with the AWS credential
 *   chain, no key at all.
 *
 * A block for another provider than the one chosen, or an OpenAI setting
 * (`base_url`) under another provider, is an error rather than a setting
 * silently ignored.
 */

export const JUDGE_PROVIDERS = ['openai', 'azure', 'bedrock'] as const;
export type JudgeProviderName = (typeof JUDGE_PROVIDERS)[number];

export const azureSettingsSchema = z.strictObject({
  /** The resource's endpoint, e.g. https://my-resource.openai.azure.com */
  endpoint: judgeBaseUrlSchema,
  /** The deployment's name, as the Azure portal shows it. */
  deployment: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'expected a deployment name: letters, digits, ".", "_" and "-"'),
  api_version: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9.-]{0,31}$/, 'expected an api-version such as 2024-10-21'),
});

export const bedrockSettingsSchema = z.strictObject({
  region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'expected an AWS region such as us-east-1'),
  /** A model id, an inference profile id (us.anthropic...) or a model ARN. */
  model_id: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,2047}$/, 'expected a Bedrock model id such as anthropic.claude-3-5-haiku-20241022-v1:0'),
  /** Another endpoint than the region's: a VPC endpoint, a proxy or gateway, or a test server. */
  /** Reached through the AWS SDK's node:http handlers, not fetch: no port is refused. */
  endpoint: serverUrlSchema.optional(),
  /**
   * The HTTP spoken to the endpoint; absent: HTTP/1.1 to http://, HTTP/2 to https:// and the region's
   * (bedrock-http-version.ts). YAML reads an unquoted 1.1 or 2 as a number, so numbers are taken too.
   */
  http_version: z
    .union([z.enum(BEDROCK_HTTP_VERSIONS), z.literal(1.1), z.literal(2)], { error: 'expected "1.1" or "2"' })
    .transform((version) => (version === 2 || version === '2' ? '2' : '1.1'))
    .optional(),
});

export const providerFields = {
  provider: z.enum(JUDGE_PROVIDERS).optional(),
  azure: azureSettingsSchema.optional(),
  bedrock: bedrockSettingsSchema.optional(),
};

export const PROVIDER_FIXES: Readonly<Record<string, string>> = {
  'judge.provider': 'use openai (any OpenAI-compatible server), azure (an Azure OpenAI deployment) or bedrock (Amazon Bedrock)',
  'judge.azure':
    'write an object with endpoint, deployment and api_version, e.g. {endpoint: https://my-resource.openai.azure.com, deployment: judge-prod, api_version: 2024-10-21}',
  'judge.azure.endpoint': "give the resource's endpoint, e.g. https://my-resource.openai.azure.com (the key goes in AZURE_OPENAI_API_KEY)",
  'judge.azure.deployment': 'give the name of the deployment, e.g. judge-prod',
  'judge.azure.api_version': 'give the api-version of the Azure OpenAI API, e.g. 2024-10-21',
  'judge.bedrock':
    'write an object with region and model_id (and endpoint and http_version, optional), e.g. {region: us-east-1, model_id: anthropic.claude-3-5-haiku-20241022-v1:0}',
  'judge.bedrock.region': 'give the AWS region of the model, e.g. us-east-1',
  'judge.bedrock.model_id': 'give the Bedrock model id or inference profile id, e.g. anthropic.claude-3-5-haiku-20241022-v1:0',
  'judge.bedrock.endpoint': "give the endpoint URL (a VPC endpoint), or drop the key to use the region's",
  'judge.bedrock.http_version':
    'give "1.1" (a proxy or gateway that speaks HTTP/1.1) or "2" (a server that speaks only HTTP/2), or drop the key: HTTP/1.1 to an http:// endpoint, HTTP/2 to https://',
};

export const PROVIDER_KEYS: Readonly<Record<string, readonly string[]>> = {
  'judge.azure': Object.keys(azureSettingsSchema.shape),
  'judge.bedrock': Object.keys(bedrockSettingsSchema.shape),
};

interface ProviderSettings {
  readonly judge: {
    readonly provider?: JudgeProviderName | undefined;
    readonly azure?: unknown;
    readonly bedrock?: unknown;
    readonly base_url?: string | undefined;
    readonly model?: string | undefined;
  };
  readonly judge_settings?: Readonly<Record<string, JudgeOverrides>> | undefined;
  readonly custom_judges?: readonly ({ readonly id: string } & JudgeOverrides)[] | undefined;
  readonly dag_judges?: readonly ({ readonly id: string } & JudgeOverrides)[] | undefined;
}

/** The settings of the file that do not fit together with its provider. */
export function checkJudgeProvider(config: ProviderSettings, file: string): string[] {
  const provider = config.judge.provider ?? 'openai';
  const problems: string[] = [];
  for (const block of ['azure', 'bedrock'] as const) {
    if (provider === block && config.judge[block] === undefined) {
      problems.push(
        inputErrorLine(file, `"judge.${block}"`, `is missing: provider ${block} needs it`, PROVIDER_FIXES[`judge.${block}`] ?? ''),
      );
    }
    if (provider !== block && config.judge[block] !== undefined) {
      problems.push(
        inputErrorLine(
          file,
          `"judge.${block}"`,
          `applies only with provider ${block}, and the provider is ${provider}`,
          `add provider: ${block}, or remove judge.${block}`,
        ),
      );
    }
  }
  if (provider === 'bedrock' && config.judge.model !== undefined) {
    problems.push(
      inputErrorLine(
        file,
        '"judge.model"',
        'does not apply with provider bedrock: the model is judge.bedrock.model_id',
        'remove judge.model, and give the model as judge.bedrock.model_id',
      ),
    );
  }
  if (provider === 'openai') return problems;
  const baseUrls = [
    ...(config.judge.base_url === undefined ? [] : ['"judge.base_url"']),
    ...Object.entries(config.judge_settings ?? {}).flatMap(([id, settings]) =>
      settings.base_url === undefined ? [] : [`"judge_settings.${id}.base_url"`],
    ),
    ...(config.custom_judges ?? []).flatMap((judge, index) =>
      judge.base_url === undefined ? [] : [`"custom_judges[${index}].base_url" (judge "${judge.id}")`],
    ),
    ...(config.dag_judges ?? []).flatMap((judge, index) =>
      judge.base_url === undefined ? [] : [`"dag_judges[${index}].base_url" (judge "${judge.id}")`],
    ),
  ];
  const where = provider === 'azure' ? 'judge.azure.endpoint' : 'judge.bedrock';
  for (const field of baseUrls) {
    problems.push(
      inputErrorLine(
        file,
        field,
        `is an OpenAI-compatible server, and the provider is ${provider}`,
        `remove it: with provider ${provider} every judge runs on ${where}`,
      ),
    );
  }
  return problems;
}
