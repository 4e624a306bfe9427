import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import { z } from 'zod';
import { judgesForRun } from '../shared/judges/default-judges.js';
import { buildLiveEngines } from '../shared/pipeline/live-engines.js';
import { chooseJudgeBackend } from '../shared/judges/judge-settings.js';
import { RefreshingSecret } from '../shared/judges/refreshing-secret.js';
import type { Judging } from '../shared/pipeline/evaluate-case.js';
import { judgingByConfig } from '../shared/pipeline/judging-by-config.js';
import type { RunConfig } from '../shared/pipeline/run-config.js';
import { suiteConfig } from '../shared/pipeline/suite-config.js';
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
  OPENAI_BASE_URL: z.url().optional(),
  ASSAY_JUDGE_MODEL: z.string().min(1).optional(),
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
  /** Judging for a run's config, one per config hash, rebuilt when the judge key changes. */
  judgingFor(config: RunConfig, configHash: string): Promise<Judging>;
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

/** How long a container uses the judge key it read: a rotated key reaches the judges within this time. */
export const JUDGE_KEY_MAX_AGE_MS = 300_000;

/**
 * The dependencies of this Lambda container, built on first use and kept for
 * the container's life. The judge key is read from Secrets Manager only by
 * the function that judges, on its first judgment, then again once it is
 * JUDGE_KEY_MAX_AGE_MS old or after a failed read; it is never put in the
 * environment.
 */
export async function lambdaDependencies(): Promise<LambdaDependencies> {
  dependencies ??= buildDependencies(parseLambdaEnvironment(process.env));
  return dependencies;
}

async function readJudgeKey(secretArn: string): Promise<string | undefined> {
  // RefreshingSecret decides when to read; Powertools' own cache would only delay a rotation further.
  const secret = await getSecret(secretArn, { forceFetch: true });
  if (typeof secret === 'string') return secret.trim() === '' ? undefined : secret.trim();
  throw new Error('the secret must hold the API key as a string (SecretString), not binary');
}

function judgeKeyReader(secretArn: string | undefined): () => Promise<string | undefined> {
  if (secretArn === undefined) return async () => undefined;
  const secret = new RefreshingSecret({ name: `the judge secret ${secretArn}`, fetch: () => readJudgeKey(secretArn), maxAgeMs: JUDGE_KEY_MAX_AGE_MS });
  return () => secret.read();
}

function buildDependencies(environment: LambdaEnvironment): LambdaDependencies {
  const clients = createAwsClients({ endpoint: environment.ASSAY_AWS_ENDPOINT });
  const store = new S3Store(clients.s3, environment.ASSAY_BUCKET);
  const judgingFor = judgingByConfig({
    judgeKey: judgeKeyReader(environment.ASSAY_JUDGE_SECRET_ARN),
    build: (config, apiKey): Judging => {
      const { backend } = chooseJudgeBackend(config, { OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: environment.OPENAI_BASE_URL, ASSAY_JUDGE_MODEL: environment.ASSAY_JUDGE_MODEL }, store);
      // A config without a judges list runs the same judges as `assay run` with the same backend.
      return { backend, judges: judgesForRun(config, backend.kind).judges, engines: buildLiveEngines(config.engines, process.env, config.run.engine_concurrency) };
    },
  });
  return {
    environment,
    store,
    cases: new SqsQueue(clients.sqs, environment.ASSAY_CASES_QUEUE_URL, 'assay-cases'),
    control: new SqsQueue(clients.sqs, environment.ASSAY_CONTROL_QUEUE_URL, 'assay-control'),
    telemetry: {
      logger: new Logger({ serviceName: environment.POWERTOOLS_SERVICE_NAME }),
      metrics: new Metrics({ namespace: environment.POWERTOOLS_METRICS_NAMESPACE, serviceName: environment.POWERTOOLS_SERVICE_NAME }),
    },
    judgingFor,
    async configFor(suite) {
      const config = await suiteConfig(store, suite);
      // The summary only names the judge; the secret itself stays with the judge worker.
      // Whether a judge key is configured is enough to name the judge; ingest never reads the secret.
      const configured = environment.ASSAY_JUDGE_SECRET_ARN === undefined ? undefined : 'configured';
      const summary = chooseJudgeBackend(config, { OPENAI_API_KEY: configured, OPENAI_BASE_URL: environment.OPENAI_BASE_URL, ASSAY_JUDGE_MODEL: environment.ASSAY_JUDGE_MODEL }, undefined).summary;
      return { config, judgeSummary: summary };
    },
  };
}
