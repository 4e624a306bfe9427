import type { Result } from '../schema/result.js';
import { DEFAULT_TIMEOUT_MS, type JudgeClientSection } from '../judge-client/judge-client-schema.js';
import { chooseProvider, type JudgeEnvironment } from '../judge-client/judge-provider.js';
import type { BatchProvider } from './batch-provider.js';
import { batchSettingsOf, bedrockBatchSchema, DEFAULT_MIN_RECORDS_PER_JOB } from '../judge-client/batch-settings.js';

/**
 * The batch API of the judge provider a run's config and environment choose,
 * loaded with its SDK on first use; not ok, with the reason, when the
 * provider cannot judge (no key: such a run is judged by the lexical judge,
 * with no batch job to make), or when Bedrock's jobs have no place to read
 * and write: the environment's (a deployed stack's bucket and service role)
 * or judge.batch.bedrock's.
 */
export async function batchProviderOf(judge: JudgeClientSection, environment: JudgeEnvironment): Promise<Result<BatchProvider>> {
  const choice = chooseProvider(judge, environment);
  if (!choice.ok) return { ok: false, error: 'error' in choice ? choice.error : choice.lexical };
  const { provider } = choice;
  if (provider.kind === 'bedrock') {
    const configured = batchSettingsOf(judge.batch)?.bedrock;
    const place = bedrockBatchSchema.safeParse({
      s3_uri: nonEmpty(environment.ASSAY_BEDROCK_BATCH_S3_URI) ?? configured?.s3_uri,
      role_arn: nonEmpty(environment.ASSAY_BEDROCK_BATCH_ROLE_ARN) ?? configured?.role_arn,
    });
    if (!place.success) {
      // The file's values were checked with the config: a bad one came from the environment.
      const issue = place.error.issues[0];
      return {
        ok: false,
        error: `${issue?.path[0] === 's3_uri' ? 'ASSAY_BEDROCK_BATCH_S3_URI' : 'ASSAY_BEDROCK_BATCH_ROLE_ARN'}: ${issue?.message ?? 'not readable'}`,
      };
    }
    const { s3_uri: s3Uri, role_arn: roleArn } = place.data;
    if (s3Uri === undefined || roleArn === undefined) {
      return {
        ok: false,
        error:
          'Amazon Bedrock batch jobs read and write S3 as a service role: give judge.batch.bedrock {s3_uri, role_arn} (a deployed stack gives its own)',
      };
    }
    const { bedrockBatchProvider } = await import('./bedrock-batch-provider.js');
    return {
      ok: true,
      value: bedrockBatchProvider({
        region: provider.region,
        s3Uri,
        roleArn,
        minRecordsPerJob: configured?.min_records_per_job ?? DEFAULT_MIN_RECORDS_PER_JOB,
      }),
    };
  }
  const { openAiBatchProvider } = await import('./openai-batch-provider.js');
  return {
    ok: true,
    value: openAiBatchProvider(
      provider.kind === 'openai'
        ? { kind: 'openai', baseUrl: provider.baseUrl, apiKey: provider.apiKey }
        : { kind: 'azure', azure: provider.azure, apiKey: provider.apiKey },
      judge.timeout_ms ?? DEFAULT_TIMEOUT_MS,
    ),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
