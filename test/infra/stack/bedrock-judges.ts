import { describe, expect, it } from 'vitest';
import { BEDROCK_CONTEXT, bedrockAssay, defaultAssay, functionLogicalId, propertiesOf, roleLogicalId } from '../support/assay-app.js';
import { allowStatements, asList } from '../support/iam-statements.js';

/** An ARN the template builds in the deployment's partition, and its region and account where given. */
const arn = (...parts: unknown[]) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ...parts]] });

describe('judges on Amazon Bedrock (-c judgeProvider=bedrock)', () => {
  it('grants the judge worker only bedrock:InvokeModel, on the models it names, derived from their ids in the stack region', () => {
    const assay = bedrockAssay();

    // The reducer's grants for batch jobs are bedrock-batch.ts's.
    const grants = allowStatements(assay).filter(({ statement }) => asList(statement.Action).includes('bedrock:InvokeModel'));

    expect(
      grants.map(({ roles, statement }) => ({ roles, actions: asList(statement.Action), resources: asList(statement.Resource) })),
    ).toEqual([
      {
        roles: [roleLogicalId(assay.stack.functions.judgeWorker)],
        actions: ['bedrock:InvokeModel'],
        resources: [
          arn(
            ':bedrock:',
            { Ref: 'AWS::Region' },
            ':',
            { Ref: 'AWS::AccountId' },
            `:inference-profile/${BEDROCK_CONTEXT.judgeBedrockModels}`,
          ),
          arn(':bedrock:', { Ref: 'AWS::Region' }, `::foundation-model/${BEDROCK_CONTEXT.judgeModel}`),
          // The profile routes to its model in the profile's regions.
          arn(`:bedrock:*::foundation-model/${BEDROCK_CONTEXT.judgeBedrockModels.replace(/^us\./, '')}`),
        ],
      },
    ]);
  });

  it('creates no judge secret and grants no secret read: the judges sign with the role', () => {
    const assay = bedrockAssay();

    assay.template.resourceCountIs('AWS::SecretsManager::Secret', 0);
    expect(allowStatements(assay).filter(({ statement }) => asList(statement.Action).includes('secretsmanager:GetSecretValue'))).toEqual(
      [],
    );
    expect(Object.keys(assay.template.toJSON().Outputs ?? {})).not.toContain('JudgeSecretArn');
  });

  it('tells every function the provider and the model, with no secret and no OpenAI server', () => {
    const assay = bedrockAssay();

    for (const assayFunction of assay.stack.functions.all) {
      const variables = (
        propertiesOf(assay.template, functionLogicalId(assayFunction)).Environment as { Variables: Record<string, unknown> }
      ).Variables;
      expect(variables, assayFunction.node.id).toMatchObject({
        ASSAY_JUDGE_PROVIDER: 'bedrock',
        ASSAY_JUDGE_MODEL: BEDROCK_CONTEXT.judgeModel,
      });
      expect(Object.keys(variables), assayFunction.node.id).not.toContain('ASSAY_JUDGE_SECRET_ARN');
      expect(Object.keys(variables), assayFunction.node.id).not.toContain('OPENAI_BASE_URL');
    }
  });

  it('grants no Bedrock model to the judges of the default stack', () => {
    const assay = defaultAssay();

    expect(
      allowStatements(assay)
        .flatMap(({ statement }) => asList(statement.Action))
        .filter((action) => action.startsWith('bedrock:')),
    ).toEqual([]);
    expect(assay.stack.judgeModelAccess).toBeUndefined();
  });
});
