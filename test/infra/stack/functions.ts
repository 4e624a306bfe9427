import { describe, expect, it } from 'vitest';
import type { AssayFunction } from '../../../infra/constructs/function-defaults.js';
import {
  customizedAssay,
  defaultAssay,
  functionLogicalId,
  judgeSecretOf,
  logicalIdOf,
  propertiesOf,
  type SynthesizedAssay,
} from '../support/assay-app.js';

interface FunctionProperties {
  Runtime: string;
  Architectures: string[];
  Timeout: number;
  Environment: { Variables: Record<string, unknown> };
  LoggingConfig: { LogGroup: { Ref: string } };
}

const propertiesOfFunction = (assay: SynthesizedAssay, assayFunction: AssayFunction) =>
  propertiesOf(assay.template, functionLogicalId(assayFunction)) as unknown as FunctionProperties;

describe('the pipeline functions', () => {
  it('runs every Node.js function of the stack on Node.js 24, arm64', () => {
    const assay = defaultAssay();
    const nodeFunctions = Object.values(assay.template.findResources('AWS::Lambda::Function')).filter((resource) =>
      String(resource.Properties.Runtime).startsWith('nodejs'),
    );

    expect(nodeFunctions).toHaveLength(assay.stack.functions.all.length);
    for (const resource of nodeFunctions) expect(resource.Properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'] });
  });

  it('gives every function the environment the handlers parse at cold start, with the secret by ARN only', () => {
    const assay = defaultAssay();

    for (const assayFunction of assay.stack.functions.all) {
      const variables = propertiesOfFunction(assay, assayFunction).Environment.Variables;
      expect(variables, assayFunction.node.id).toMatchObject({
        ASSAY_BUCKET: { Ref: logicalIdOf(assay.stack.data.bucket) },
        ASSAY_CASES_QUEUE_URL: { Ref: logicalIdOf(assay.stack.queues.cases) },
        ASSAY_CONTROL_QUEUE_URL: { Ref: logicalIdOf(assay.stack.queues.control) },
        ASSAY_JUDGE_SECRET_ARN: { Ref: logicalIdOf(judgeSecretOf(assay)) },
        OPENAI_BASE_URL: 'https://api.openai.com/v1',
        ASSAY_JUDGE_MODEL: 'gpt-4o-mini',
        POWERTOOLS_SERVICE_NAME: 'assay',
        POWERTOOLS_METRICS_NAMESPACE: 'assay',
        POWERTOOLS_LOG_LEVEL: 'INFO',
      });
      expect(Object.keys(variables)).not.toContain('OPENAI_API_KEY');
    }
  });

  it('gives the scheduled trigger the suites from context', () => {
    const assay = customizedAssay();

    expect(propertiesOfFunction(assay, assay.stack.functions.scheduledTrigger).Environment.Variables.ASSAY_SUITES).toBe('faq,search');
  });

  it("keeps every function's logs in a log group of its own with a retention period", () => {
    const assay = defaultAssay();

    for (const assayFunction of assay.stack.functions.all) {
      const logGroup = propertiesOfFunction(assay, assayFunction).LoggingConfig.LogGroup.Ref;
      expect(propertiesOf(assay.template, logGroup), assayFunction.node.id).toMatchObject({ RetentionInDays: 30 });
    }
  });

  it.each([
    ['the defaults', defaultAssay, { MaximumConcurrency: 10, BatchSize: 10, Window: 2 }],
    ['context', customizedAssay, { MaximumConcurrency: 25, BatchSize: 5, Window: 3 }],
  ])(
    'feeds the judge worker from the cases queue with partial batch failures and a concurrency ceiling from %s',
    (_name, synthesize, expected) => {
      const assay = synthesize();

      assay.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        EventSourceArn: { 'Fn::GetAtt': [logicalIdOf(assay.stack.queues.cases), 'Arn'] },
        FunctionName: { Ref: functionLogicalId(assay.stack.functions.judgeWorker) },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: { MaximumConcurrency: expected.MaximumConcurrency },
        BatchSize: expected.BatchSize,
        MaximumBatchingWindowInSeconds: expected.Window,
      });
    },
  );

  it.each([
    ['failure recorder', 'casesDeadLetters', 'failureRecorder', 10],
    ['reducer', 'control', 'reducer', 1],
  ] as const)('feeds the %s from its queue', (_name, queue, consumer, batchSize) => {
    const assay = defaultAssay();

    assay.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [logicalIdOf(assay.stack.queues[queue]), 'Arn'] },
      FunctionName: { Ref: functionLogicalId(assay.stack.functions[consumer]) },
      BatchSize: batchSize,
    });
  });

  it.each([
    // 6 × 180 s + the 2 s batching window
    ['the defaults', defaultAssay, 1082],
    // 6 × 120 s + the 3 s batching window
    ['context', customizedAssay, 723],
  ])(
    "gives every consumed queue a visibility timeout of at least six times its consumer's timeout, with %s",
    (_name, synthesize, casesVisibility) => {
      const assay = synthesize();
      const mappings = Object.values(assay.template.findResources('AWS::Lambda::EventSourceMapping'));

      expect(propertiesOf(assay.template, logicalIdOf(assay.stack.queues.cases)).VisibilityTimeout).toBe(casesVisibility);
      expect(mappings).toHaveLength(3);
      for (const mapping of mappings) {
        const queue = propertiesOf(assay.template, (mapping.Properties.EventSourceArn as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0]);
        const consumer = propertiesOf(assay.template, (mapping.Properties.FunctionName as { Ref: string }).Ref);
        expect(queue.VisibilityTimeout as number).toBeGreaterThanOrEqual(6 * (consumer.Timeout as number));
      }
    },
  );
});

describe('the nightly schedule', () => {
  it.each([
    ['the default', defaultAssay, 'cron(0 3 * * ? *)'],
    ['context', customizedAssay, 'cron(30 1 ? * MON-FRI *)'],
  ])('invokes the scheduled trigger on the schedule from %s', (_name, synthesize, expression) => {
    const assay = synthesize();

    assay.template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: expression,
      ScheduleExpressionTimezone: 'Etc/UTC',
      State: 'ENABLED',
      Target: { Arn: { 'Fn::GetAtt': [functionLogicalId(assay.stack.functions.scheduledTrigger), 'Arn'] } },
    });
  });
});
