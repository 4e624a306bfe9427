import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { z } from 'zod';
import { judgeBaseUrlSchema } from '../shared/judge-client/judge-base-url.js';
import { JUDGE_PROVIDERS } from '../shared/judge-client/judge-provider-config.js';
import type { JudgeEnvironment } from '../shared/judge-client/judge-provider.js';
import { runJudgeSummary } from '../shared/worker/run-judge-summary.js';
import type { RunConfig } from '../shared/config/index.js';
import { suiteConfig } from '../shared/run/suite-config.js';
import { createAwsClients } from '../shared/ports/aws-clients.js';
import type { ObjectStore } from '../shared/ports/object-store.js';
import { S3Store } from '../shared/ports/s3-store.js';
import { SqsQueue } from '../shared/ports/sqs-queue.js';
import type { HandlerTelemetry } from './handler-context.js';

/**
 * What the handlers need on Lambda, from the environment the stack sets,
 * parsed once at cold start: a missing or malformed variable fails the first
 * invocation with its name, instead of failing later in the middle of a run.
 */
const environmentSchema = z.object({
  ASSAY_BUCKET: z.string().min(1),
  ASSAY_CASES_QUEUE_URL: z.url(),
  ASSAY_CONTROL_QUEUE_URL: z.url(),
  /** An S3/SQS-compatible endpoint other than AWS's own (tests, emulators). */
  ASSAY_AWS_ENDPOINT: z.url().optional(),
  /** The Secrets Manager secret holding the judge API key; without it the lexical judge runs. */
  ASSAY_JUDGE_SECRET_ARN: z.string().min(1).optional(),
  /** The Secrets Manager secret holding the engines' variables (a JSON object); set on the judge worker only. */
  ASSAY_ENGINE_SECRET_ARN: z.string().min(1).optional(),
  OPENAI_BASE_URL: judgeBaseUrlSchema.optional(),
  /** The judge workers that share the judge account's rate, and this container's part of it (infra/judge-workers.ts); judge worker only. */
  ASSAY_JUDGE_WORKERS: z.coerce.number().int().positive().optional(),
  ASSAY_JUDGE_REQUESTS_PER_MINUTE: z.coerce.number().positive().optional(),
  ASSAY_JUDGE_TOKENS_PER_MINUTE: z.coerce.number().positive().optional(),
  ASSAY_JUDGE_MODEL: z.string().min(1).optional(),
  /** The judges' provider for every suite (the stack's judgeProvider); absent: each suite config's own. */
  ASSAY_JUDGE_PROVIDER: z.enum(JUDGE_PROVIDERS).optional(),
  /** The function's own region, which Bedrock judges use unless a suite config names another. */
  AWS_REGION: z.string().min(1).optional(),
  /** Where Bedrock batch jobs read and write (the stack's bucket) and the service role they run as; the reducer's, on a stack of Bedrock judges. */
  ASSAY_BEDROCK_BATCH_S3_URI: z
    .string()
    .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]\/?$/, "expected the S3 URI of the stack's bucket")
    .optional(),
  ASSAY_BEDROCK_BATCH_ROLE_ARN: z
    .string()
    .regex(/^arn:aws[a-z-]*:iam::\d{12}:role\/.+$/, 'expected the ARN of the Bedrock batch service role')
    .optional(),
  POWERTOOLS_SERVICE_NAME: z.string().default('assay'),
  POWERTOOLS_METRICS_NAMESPACE: z.string().default('assay'),
});
export type LambdaEnvironment = z.infer<typeof environmentSchema>;

export interface LambdaDependencies {
  readonly environment: LambdaEnvironment;
  readonly store: ObjectStore;
  readonly cases: SqsQueue;
  readonly control: SqsQueue;
  readonly telemetry: HandlerTelemetry;
  /** A suite's run config: `config/<suite>.yaml` (or .yml, .json) in the bucket, else the defaults. */
  configFor(suite: string): Promise<{ config: RunConfig; judgeSummary: string }>;
}

export function parseLambdaEnvironment(variables: NodeJS.ProcessEnv): LambdaEnvironment {
  const parsed = environmentSchema.safeParse(variables);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`The function's environment is incomplete (${problems}); the stack sets these variables on every function`);
  }
  return parsed.data;
}

let dependencies: LambdaDependencies | undefined;

/**
 * The dependencies of this Lambda container, built on first use and kept for
 * the container's life. What only the judge worker needs (the judge key, the
 * engine secret, the judges and engines) is added by
 * judge-worker-dependencies.ts, so no other function reads a secret.
 */
export async function lambdaDependencies(): Promise<LambdaDependencies> {
  dependencies ??= buildDependencies(parseLambdaEnvironment(process.env));
  return dependencies;
}

function buildDependencies(environment: LambdaEnvironment): LambdaDependencies {
  const clients = createAwsClients({ endpoint: environment.ASSAY_AWS_ENDPOINT });
  const store = new S3Store(clients.s3, environment.ASSAY_BUCKET);
  return {
    environment,
    store,
    cases: new SqsQueue(clients.sqs, environment.ASSAY_CASES_QUEUE_URL, 'assay-cases'),
    control: new SqsQueue(clients.sqs, environment.ASSAY_CONTROL_QUEUE_URL, 'assay-control'),
    telemetry: {
      logger: new Logger({ serviceName: environment.POWERTOOLS_SERVICE_NAME }),
      metrics: new Metrics({ namespace: environment.POWERTOOLS_METRICS_NAMESPACE, serviceName: environment.POWERTOOLS_SERVICE_NAME }),
    },
    async configFor(suite) {
      const config = await suiteConfig(store, suite);
      // The summary only names the judge; the secret itself stays with the judge worker.
      // Whether a judge key is configured is enough to name the judge; ingest never reads the secret.
      const configured = environment.ASSAY_JUDGE_SECRET_ARN === undefined ? undefined : 'configured';
      // The worker keeps its judge cache in this bucket, so the store is passed for the summary to say so.
      const judgeSummary = runJudgeSummary(config, lambdaJudgeEnvironment(environment, configured), store);
      return { config, judgeSummary };
    },
  };
}

/**
 * What the judges read on Lambda: the stack's variables, and the judge key
 * from the judge secret (read by the judge worker only), which holds the key
 * of whichever provider the config names (OpenAI or Azure OpenAI).
 */
export function lambdaJudgeEnvironment(environment: LambdaEnvironment, apiKey: string | undefined): JudgeEnvironment {
  return {
    OPENAI_API_KEY: apiKey,
    AZURE_OPENAI_API_KEY: apiKey,
    OPENAI_BASE_URL: environment.OPENAI_BASE_URL,
    ASSAY_JUDGE_MODEL: environment.ASSAY_JUDGE_MODEL,
    ASSAY_JUDGE_PROVIDER: environment.ASSAY_JUDGE_PROVIDER,
    AWS_REGION: environment.AWS_REGION,
    ASSAY_BEDROCK_BATCH_S3_URI: environment.ASSAY_BEDROCK_BATCH_S3_URI,
    ASSAY_BEDROCK_BATCH_ROLE_ARN: environment.ASSAY_BEDROCK_BATCH_ROLE_ARN,
  };
}
