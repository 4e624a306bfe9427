import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type AppProps, type CfnResource, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { addAssayStack } from '../../../infra/assay-app.js';
import type { AssayStack } from '../../../infra/assay-stack.js';
import type { AssayFunction } from '../../../infra/constructs/function-defaults.js';

export const PROJECT_ROOT = join(import.meta.dirname, '..', '..', '..');

/** The context `cdk synth` gets from cdk.json: the tests synthesize what the CLI would. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  return cdkJson.context;
}

/** The first synthesis in a test file loads most of aws-cdk-lib and cdk-nag: seconds, not milliseconds. */
export const SYNTH_TIMEOUT_MS = 60_000;

export interface SynthesizedAssay {
  readonly app: App;
  readonly stack: AssayStack;
  readonly template: Template;
}

/**
 * An app for a test, synthesized only when the test asks (Template.fromStack,
 * app.synth()). The test run names one output folder in CDK_OUTDIR
 * (test/support/build-cli.ts), and an App that sees that variable would also
 * synthesize itself when its thread ends, as under `cdk synth`, holding on to
 * a `beforeExit` listener, and with it the whole app, until then: in a worker
 * shared by many files, every app of every infra test.
 */
export function testApp(props: AppProps = {}): App {
  return new App({ ...props, autoSynth: false });
}

/**
 * The app as infra/app.ts builds it, with cdk.json's context plus `context`,
 * and bundling skipped (the one bundling synth is the CLI test's). Making the
 * template synthesizes the app, which runs cdk-nag: a finding nobody
 * acknowledged throws here.
 */
export function synthesizeAssay(context: Record<string, unknown> = {}): SynthesizedAssay {
  const app = testApp({ context: { ...cdkJsonContext(), ...context, 'aws:cdk:bundling-stacks': [] } });
  const stack = addAssayStack(app);
  return { app, stack, template: Template.fromStack(stack) };
}

/**
 * Every setting changed from its default, as `-c key=value` would give them
 * (strings): the tests that check a setting reaches the template read this
 * synthesis, the rest read the default one. Each is synthesized once per
 * test file.
 */
export const CUSTOM_CONTEXT = {
  suites: 'faq,search',
  maxConcurrency: '25',
  batchSize: '5',
  maxBatchingWindowSeconds: '3',
  maxReceiveCount: '5',
  judgeWorkerTimeoutSeconds: '120',
  cacheExpirationDays: '7',
  runsExpirationDays: '45',
  noncurrentVersionExpirationDays: '14',
  schedule: 'cron(30 1 ? * MON-FRI *)',
  alarmEmail: 'oncall@example.com',
  judgeSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:assay-judge-AbC123',
} as const;

/**
 * Live engines on AWS: a secret for their variables, one resource of each
 * kind they may call, and the judge worker in a VPC. Given as `-c` would give
 * them, lists comma-separated.
 */
export const ENGINES_CONTEXT = {
  engineSecretArn: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:assay-engines-XyZ789',
  engineKnowledgeBaseArns:
    'arn:aws:bedrock:us-east-1:123456789012:knowledge-base/KB12345678,arn:aws:bedrock:us-east-1:123456789012:knowledge-base/KB87654321',
  engineModelArns: 'arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-3-haiku-20240307-v1:0',
  engineFunctionArns:
    'arn:aws:lambda:us-east-1:123456789012:function:search-engine,arn:aws:lambda:us-east-1:123456789012:function:search-engine:live',
  engineOpenSearchDomainArns: 'arn:aws:es:us-east-1:123456789012:domain/products',
  engineOpenSearchCollectionArns: 'arn:aws:aoss:us-east-1:123456789012:collection/a1b2c3d4e5f6',
  engineVpcId: 'vpc-0123456789abcdef0',
  engineSubnetIds: 'subnet-0123456789abcdef0,subnet-0fedcba9876543210',
} as const;

/** A judge account's rate for the whole stack: 600 requests and 200,000 tokens a minute, with 25 judge workers allowed. */
export const RATED_CONTEXT = {
  maxConcurrency: '25',
  judgeRequestsPerMinute: '600',
  judgeTokensPerMinute: '200000',
} as const;

const synthesized = new Map<string, SynthesizedAssay>();

function once(name: string, context: Record<string, unknown>): SynthesizedAssay {
  const existing = synthesized.get(name);
  if (existing !== undefined) return existing;
  const assay = synthesizeAssay(context);
  synthesized.set(name, assay);
  return assay;
}

export const defaultAssay = (): SynthesizedAssay => once('default', {});
export const customizedAssay = (): SynthesizedAssay => once('customized', CUSTOM_CONTEXT);
export const enginesAssay = (): SynthesizedAssay => once('engines', ENGINES_CONTEXT);
export const ratedAssay = (): SynthesizedAssay => once('rated', RATED_CONTEXT);

/** Judges on Amazon Bedrock: a model, and a cross-region inference profile for a judge of its own. */
export const BEDROCK_CONTEXT = {
  judgeProvider: 'bedrock',
  judgeModel: 'anthropic.claude-3-5-haiku-20241022-v1:0',
  judgeBedrockModels: 'us.anthropic.claude-3-5-sonnet-20241022-v2:0',
} as const;
export const bedrockAssay = (): SynthesizedAssay => once('bedrock', BEDROCK_CONTEXT);

/** The stack's judge secret, which only a stack with an OpenAI-compatible judge has. */
export function judgeSecretOf(assay: SynthesizedAssay): IConstruct {
  const secret = assay.stack.judgeSecret?.secret;
  if (secret === undefined) throw new Error('This stack has no judge secret (its judges are on Bedrock)');
  return secret;
}

/** The logical id, in the template, of the resource an L2 construct wraps. */
export function logicalIdOf(construct: IConstruct): string {
  const resource = construct.node.defaultChild as CfnResource;
  const stack = Stack.of(resource);
  return stack.resolve(stack.getLogicalId(resource)) as string;
}

export const functionLogicalId = (assayFunction: AssayFunction): string => logicalIdOf(assayFunction.function);
export const roleLogicalId = (assayFunction: AssayFunction): string => logicalIdOf(assayFunction.role);

/** A resource's properties by logical id, for assertions that compare two resources. */
export function propertiesOf(template: Template, logicalId: string): Record<string, unknown> {
  const resource = (template.toJSON() as { Resources: Record<string, { Properties: Record<string, unknown> }> }).Resources[logicalId];
  if (resource === undefined) throw new Error(`No resource ${logicalId} in the template`);
  return resource.Properties;
}
