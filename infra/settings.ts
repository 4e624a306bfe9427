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

export const settingsSchema = z
  .object({
    stackName: z.string().regex(/^[A-Za-z][A-Za-z0-9-]{0,127}$/, 'Expected a CloudFormation stack name: a letter, then letters, digits or "-"').default('Assay'),
    judgeBaseUrl: z.url().default('https://api.openai.com/v1'),
    judgeModel: z.string().min(1).default('gpt-4o-mini'),
    /** An existing secret holding the judge API key; without it the stack creates an empty one. */
    judgeSecretArn: optional(z.string().regex(/^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:.+$/, 'Expected a Secrets Manager secret ARN')),
    /** Concurrent judge worker invocations: the lever on the judge server's rate limit (SQS event sources allow 2 to 1000). */
    maxConcurrency: wholeNumber(2, 1000).default(10),
    batchSize: wholeNumber(1, 10_000).default(10),
    maxBatchingWindowSeconds: wholeNumber(0, 300).default(2),
    maxReceiveCount: wholeNumber(1, 1000).default(3),
    judgeWorkerTimeoutSeconds: wholeNumber(10, 900).default(180),
    judgeWorkerMemoryMiB: wholeNumber(128, 10_240).default(256),
    schedule: z.string().regex(/^(cron|rate)\(.+\)$/, 'Expected an EventBridge Scheduler expression such as cron(0 3 * * ? *)').default('cron(0 3 * * ? *)'),
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
  })
  .refine((settings) => settings.batchSize <= 10 || settings.maxBatchingWindowSeconds >= 1, {
    message: 'Expected maxBatchingWindowSeconds of at least 1 when batchSize is above 10 (an SQS event source rule)',
    path: ['maxBatchingWindowSeconds'],
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
