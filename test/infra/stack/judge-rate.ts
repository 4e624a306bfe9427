import { describe, expect, it } from 'vitest';
import { defaultAssay, functionLogicalId, logicalIdOf, propertiesOf, ratedAssay } from '../support/assay-app.js';
import { allowStatements, asList } from '../support/iam-statements.js';

/**
 * The judge account's rate on AWS: many judge worker containers share it, so
 * the stack gives each its part and caps how many there are.
 */
describe("the judge account's rate", () => {
  it('divides the rate among the judge workers, lowered to one request a second each, and reserves that concurrency', () => {
    // Prepare: 600 requests a minute is 10 workers at 60 each, below the 25 allowed
    const assay = ratedAssay();
    const judgeWorker = propertiesOf(assay.template, functionLogicalId(assay.stack.functions.judgeWorker));

    // Assess
    expect(judgeWorker.ReservedConcurrentExecutions).toBe(10);
    expect((judgeWorker.Environment as { Variables: Record<string, unknown> }).Variables).toMatchObject({
      ASSAY_JUDGE_WORKERS: '10',
      ASSAY_JUDGE_REQUESTS_PER_MINUTE: '60',
      ASSAY_JUDGE_TOKENS_PER_MINUTE: '20000',
    });
    assay.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: functionLogicalId(assay.stack.functions.judgeWorker) },
      ScalingConfig: { MaximumConcurrency: 10 },
    });
  });

  it("reserves nothing without a rate, and tells the workers how many share a suite config's judge.rate_limit", () => {
    const assay = defaultAssay();
    const judgeWorker = propertiesOf(assay.template, functionLogicalId(assay.stack.functions.judgeWorker));
    const variables = (judgeWorker.Environment as { Variables: Record<string, unknown> }).Variables;

    expect(judgeWorker.ReservedConcurrentExecutions).toBeUndefined();
    expect(variables.ASSAY_JUDGE_WORKERS).toBe('10');
    expect(Object.keys(variables)).not.toContain('ASSAY_JUDGE_REQUESTS_PER_MINUTE');
    for (const assayFunction of assay.stack.functions.all.filter((candidate) => candidate !== assay.stack.functions.judgeWorker)) {
      const others = propertiesOf(assay.template, functionLogicalId(assayFunction)).Environment as { Variables: Record<string, unknown> };
      expect(Object.keys(others.Variables), assayFunction.node.id).not.toContain('ASSAY_JUDGE_WORKERS');
    }
  });

  it('lets the judge worker send a case that the rate limit held back to the cases queue', () => {
    const assay = defaultAssay();
    const senders = allowStatements(assay).filter(({ statement }) => asList(statement.Action).includes('sqs:SendMessage'));
    const role = logicalIdOf(assay.stack.functions.judgeWorker.role);

    const judgeWorkerSends = senders.filter(({ roles }) => roles.includes(role)).map(({ statement }) => statement.Resource);
    expect(judgeWorkerSends).toEqual([{ 'Fn::GetAtt': [logicalIdOf(assay.stack.queues.cases), 'Arn'] }]);
  });
});
