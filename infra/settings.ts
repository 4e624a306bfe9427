import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import { z } from 'zod';

/**
 * The deployment's settings, read from CDK context (`cdk.json`, or `-c key=value`
 * on the command line) and parsed once, so a bad value stops `cdk synth` with
 * the key's name instead of surfacing as a CloudFormation error halfway through
 * a deployment. Values given with `-c` arrive as strings, hence the coercions.
 */

/** `-c alarmEmail=` means "not set", as leaving the key out does. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const wholeNumber = (minimum: number, maximum: number) => z.coerce.number().int().min(minimum).max(maximum);

const retentionDays = new Set(Object.values(RetentionDays).filter((value): value is number => typeof value === 'number'));

const suiteName = /^[A-Za-z0-9._-]+$/;

const secretArn = z.string().regex(/^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:.+$/, 'Expected a Secrets Manager secret ARN');

/** A list given as a JSON array in cdk.json or comma-separated with -c; every item must match `pattern`. */
const listOf = (pattern: RegExp, expected: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((value) => (Array.isArray(value) ? value : value.split(',')).map((item) => item.trim()).filter((item) => item !== ''))
    .pipe(z.array(z.string().regex(pattern, expected)))
    .default([]);

/** The beginning of an ARN in any partition: `arn:aws:<service>:<region>:<account>:`; no wildcards, so a grant names exactly these resources. */
const arnOf = (service: string, resource: string, account = '\\d{12}') =>
  new RegExp(`^arn:aws[a-z-]*:${service}:[a-z0-9-]+:${account}:${resource}$`);

/** A Bedrock model id (`anthropic.claude-3-5-haiku-20241022-v1:0`) or a cross-region inference profile id (`us.anthropic...`). */
export const BEDROCK_MODEL_ID = /^[a-z0-9-]+\.[A-Za-z0-9._:-]+$/;

const BEDROCK_MODEL_RESOURCE =
  '(foundation-model|inference-profile|application-inference-profile|provisioned-model|custom-model|imported-model)/[A-Za-z0-9._:/-]+';

export const settingsSchema = z
  .object({
    stackName: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9-]{0,127}$/, 'Expected a CloudFormation stack name: a letter, then letters, digits or "-"')
      .default('Assay'),
    /** Where the judges run for every suite: an OpenAI-compatible server with the key in the judge secret, or Amazon Bedrock with the judge worker's role. */
    judgeProvider: z.enum(['openai', 'bedrock']).default('openai'),
    judgeBaseUrl: z.url().default('https://api.openai.com/v1'),
    judgeModel: z.string().min(1).default('gpt-4o-mini'),
    /** Further Bedrock models the judges may ask (a judge's own model, `judge@model` variants), granted as judgeModel is. */
    judgeBedrockModels: listOf(
      BEDROCK_MODEL_ID,
      'Expected Bedrock model ids such as anthropic.claude-3-5-haiku-20241022-v1:0 or us.anthropic.claude-3-5-haiku-20241022-v1:0',
    ),
    /** An existing secret holding the judge API key; without it the stack creates an empty one. */
    judgeSecretArn: optional(secretArn),
    /** Concurrent judge worker invocations: the lever on the judge server's rate limit (SQS event sources allow 2 to 1000). */
    maxConcurrency: wholeNumber(2, 1000).default(10),
    /**
     * The judge account's requests and tokens a minute for each judge model, shared by every judge
     * worker: each gets its part (judge-workers.ts), and the worker's concurrency is reserved.
     */
    judgeRequestsPerMinute: optional(z.coerce.number().positive()),
    judgeTokensPerMinute: optional(z.coerce.number().positive()),
    batchSize: wholeNumber(1, 10_000).default(10),
    maxBatchingWindowSeconds: wholeNumber(0, 300).default(2),
    maxReceiveCount: wholeNumber(1, 1000).default(3),
    judgeWorkerTimeoutSeconds: wholeNumber(10, 900).default(180),
    judgeWorkerMemoryMiB: wholeNumber(128, 10_240).default(256),
    schedule: z
      .string()
      .regex(/^(cron|rate)\(.+\)$/, 'Expected an EventBridge Scheduler expression such as cron(0 3 * * ? *)')
      .default('cron(0 3 * * ? *)'),
    suites: z
      .union([z.string(), z.array(z.string())])
      .transform((value) => (Array.isArray(value) ? value : value.split(',')).map((suite) => suite.trim()).filter((suite) => suite !== ''))
      .pipe(z.array(z.string().regex(suiteName, 'Expected suite names of letters, digits, ".", "_" or "-"')))
      .default([]),
    alarmEmail: optional(z.email()),
    logLevel: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']).default('INFO'),
    logRetentionDays: z.coerce
      .number()
      .refine((days) => retentionDays.has(days), `Expected one of CloudWatch Logs' retention periods: ${[...retentionDays].join(', ')}`)
      .default(30),
    cacheExpirationDays: wholeNumber(1, 3650).default(90),
    runsExpirationDays: wholeNumber(1, 3650).default(90),
    accessLogExpirationDays: wholeNumber(1, 3650).default(90),
    noncurrentVersionExpirationDays: wholeNumber(1, 3650).default(30),
    /** A secret holding the live engines' variables as a JSON object (NAME → value); only the judge worker reads it. */
    engineSecretArn: optional(secretArn),
    /** What the judge worker may call for the live engines: exactly these resources, nothing when a list is empty. */
    engineKnowledgeBaseArns: listOf(
      arnOf('bedrock', 'knowledge-base/[0-9A-Za-z]{10}'),
      'Expected Bedrock knowledge base ARNs (arn:aws:bedrock:REGION:ACCOUNT:knowledge-base/ID)',
    ),
    engineModelArns: listOf(
      arnOf('bedrock', BEDROCK_MODEL_RESOURCE, '(\\d{12})?'),
      'Expected Bedrock model ARNs (arn:aws:bedrock:REGION::foundation-model/MODEL, or an inference profile or provisioned model of an account)',
    ),
    engineFunctionArns: listOf(
      arnOf('lambda', 'function:[A-Za-z0-9_-]+(:[A-Za-z0-9$_-]+)?'),
      'Expected Lambda function ARNs (arn:aws:lambda:REGION:ACCOUNT:function:NAME, with :ALIAS or :VERSION to call one)',
    ),
    engineOpenSearchDomainArns: listOf(
      arnOf('es', 'domain/[a-z][a-z0-9-]{2,27}'),
      'Expected OpenSearch Service domain ARNs (arn:aws:es:REGION:ACCOUNT:domain/NAME)',
    ),
    engineOpenSearchCollectionArns: listOf(
      arnOf('aoss', 'collection/[a-z0-9]+'),
      'Expected OpenSearch Serverless collection ARNs (arn:aws:aoss:REGION:ACCOUNT:collection/ID)',
    ),
    /** Puts the judge worker in this VPC, in these subnets, to reach engines on private endpoints. */
    engineVpcId: optional(z.string().regex(/^vpc-([0-9a-f]{8}|[0-9a-f]{17})$/, 'Expected a VPC id such as vpc-0123456789abcdef0')),
    engineSubnetIds: listOf(/^subnet-([0-9a-f]{8}|[0-9a-f]{17})$/, 'Expected subnet ids such as subnet-0123456789abcdef0'),
    engineSecurityGroupIds: listOf(/^sg-([0-9a-f]{8}|[0-9a-f]{17})$/, 'Expected security group ids such as sg-0123456789abcdef0'),
  })
  .refine((settings) => settings.judgeProvider !== 'bedrock' || BEDROCK_MODEL_ID.test(settings.judgeModel), {
    message:
      'Expected judgeModel to be a Bedrock model id with judgeProvider bedrock, e.g. -c judgeModel=anthropic.claude-3-5-haiku-20241022-v1:0',
    path: ['judgeModel'],
  })
  .refine((settings) => settings.judgeProvider === 'bedrock' || settings.judgeBedrockModels.length === 0, {
    message: 'Expected judgeProvider bedrock with judgeBedrockModels (the models are granted to Bedrock judges)',
    path: ['judgeBedrockModels'],
  })
  .refine((settings) => settings.judgeProvider !== 'bedrock' || settings.judgeSecretArn === undefined, {
    message: "Expected no judgeSecretArn with judgeProvider bedrock: Bedrock judges sign with the judge worker's role and read no key",
    path: ['judgeSecretArn'],
  })
  .refine((settings) => settings.batchSize <= 10 || settings.maxBatchingWindowSeconds >= 1, {
    message: 'Expected maxBatchingWindowSeconds of at least 1 when batchSize is above 10 (an SQS event source rule)',
    path: ['maxBatchingWindowSeconds'],
  })
  .refine((settings) => settings.engineModelArns.length === 0 || settings.engineKnowledgeBaseArns.length > 0, {
    message:
      'Expected engineKnowledgeBaseArns with engineModelArns (the models are granted for RetrieveAndGenerate on those knowledge bases)',
    path: ['engineModelArns'],
  })
  .refine((settings) => (settings.engineVpcId === undefined) === (settings.engineSubnetIds.length === 0), {
    message: 'Expected engineVpcId and engineSubnetIds together (the judge worker runs in those subnets of that VPC)',
    path: ['engineSubnetIds'],
  })
  .refine((settings) => settings.engineSecurityGroupIds.length === 0 || settings.engineVpcId !== undefined, {
    message: 'Expected engineVpcId and engineSubnetIds with engineSecurityGroupIds',
    path: ['engineSecurityGroupIds'],
  });

export type Settings = z.infer<typeof settingsSchema>;

export const SETTING_KEYS = Object.keys(settingsSchema.shape) as (keyof Settings)[];

/** Reads every setting from the construct tree's context (the app's, in practice). */
export function readSettings(node: Node): Settings {
  const raw = Object.fromEntries(SETTING_KEYS.map((key) => [key, node.tryGetContext(key)]));
  const parsed = settingsSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `context "${issue.path.join('.')}": ${issue.message}`).join('; ');
    throw new Error(`Invalid deployment settings (${problems}); set them in cdk.json or with -c key=value`);
  }
  return parsed.data;
}
