import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { EngineAccess, type EngineAccessProps } from '../../../infra/constructs/engine-access.js';
import { EngineNetwork } from '../../../infra/constructs/engine-network.js';
import {
  defaultAssay,
  ENGINES_CONTEXT,
  enginesAssay,
  functionLogicalId,
  logicalIdOf,
  propertiesOf,
  roleLogicalId,
  type SynthesizedAssay,
  testApp,
} from '../support/assay-app.js';
import { allowStatements, asList } from '../support/iam-statements.js';

const ENGINE_ACTIONS = [
  'bedrock:Retrieve',
  'bedrock:RetrieveAndGenerate',
  'bedrock:InvokeModel',
  'lambda:InvokeFunction',
  'es:ESHttpGet',
  'es:ESHttpPost',
  'aoss:APIAccessAll',
];
const ENI_POLICY = 'service-role/AWSLambdaENIManagementAccess';

const listed = (value: string): string[] => value.split(',');

/** Statements on resources outside the stack, named by literal ARNs (the stack's own are references). */
const onOutsideResources = ({ statement }: { statement: { Resource: unknown } }): boolean =>
  asList(statement.Resource).some((resource) => typeof resource === 'string');

/** The outside resources of the statements that grant exactly `actions`, with the roles they are attached to. */
function grantsOf(assay: SynthesizedAssay, actions: string[]): { roles: string[]; resources: unknown[] }[] {
  return allowStatements(assay)
    .filter(onOutsideResources)
    .filter(({ statement }) => JSON.stringify(asList(statement.Action).toSorted()) === JSON.stringify(actions.toSorted()))
    .map(({ roles, statement }) => ({ roles, resources: asList(statement.Resource) }));
}

const managedPoliciesOf = (assay: SynthesizedAssay, role: string): string[] =>
  ((propertiesOf(assay.template, role).ManagedPolicyArns ?? []) as unknown[]).map((arn) => JSON.stringify(arn));

interface VpcConfig {
  SubnetIds: string[];
  SecurityGroupIds: unknown[];
}

describe('live engines on AWS', () => {
  it.each<[string, string[], string[]]>([
    ['engineKnowledgeBaseArns', ['bedrock:Retrieve', 'bedrock:RetrieveAndGenerate'], listed(ENGINES_CONTEXT.engineKnowledgeBaseArns)],
    ['engineModelArns', ['bedrock:InvokeModel'], listed(ENGINES_CONTEXT.engineModelArns)],
    ['engineFunctionArns', ['lambda:InvokeFunction'], listed(ENGINES_CONTEXT.engineFunctionArns)],
    ['engineOpenSearchDomainArns', ['es:ESHttpGet', 'es:ESHttpPost'], ['arn:aws:es:us-east-1:123456789012:domain/products/*']],
    ['engineOpenSearchCollectionArns', ['aoss:APIAccessAll'], listed(ENGINES_CONTEXT.engineOpenSearchCollectionArns)],
  ])('grants the judge worker only, on exactly the resources of %s, %j', (_key, actions, resources) => {
    const assay = enginesAssay();

    const grants = grantsOf(assay, actions);

    expect(grants).toEqual([{ roles: [roleLogicalId(assay.stack.functions.judgeWorker)], resources }]);
  });

  it('grants no engine action to anyone by default', () => {
    const assay = defaultAssay();

    const judgeWorker = roleLogicalId(assay.stack.functions.judgeWorker);
    const outside = allowStatements(assay)
      .filter(onOutsideResources)
      .flatMap(({ statement }) => asList(statement.Action));
    const ofJudgeWorker = allowStatements(assay)
      .filter(({ roles }) => roles.includes(judgeWorker))
      .flatMap(({ statement }) => asList(statement.Action));

    expect(outside.filter((action) => ENGINE_ACTIONS.includes(action))).toEqual([]);
    expect(ofJudgeWorker.filter((action) => ENGINE_ACTIONS.includes(action))).toEqual([]);
    expect(assay.stack.engineAccess.policy).toBeUndefined();
  });

  it.each<[keyof Omit<EngineAccessProps, 'role'>, string]>([
    ['knowledgeBaseArns', 'arn:aws:bedrock:us-east-1:123456789012:knowledge-base/KB12345678'],
    ['functionArns', 'arn:aws:lambda:us-east-1:123456789012:function:search-engine'],
    ['openSearchDomainArns', 'arn:aws:es:us-east-1:123456789012:domain/products'],
    ['openSearchCollectionArns', 'arn:aws:aoss:us-east-1:123456789012:collection/a1b2c3d4e5f6'],
  ])('grants nothing for an empty list: with only %s, the policy has that one statement', (list, arn) => {
    // Prepare
    const stack = new Stack(testApp(), 'Probe');
    const role = new Role(stack, 'Worker', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    const empty = { knowledgeBaseArns: [], modelArns: [], functionArns: [], openSearchDomainArns: [], openSearchCollectionArns: [] };

    // Act
    new EngineAccess(stack, 'Engines', { role, ...empty, [list]: [arn] });

    // Assess
    const policies = Object.values(Template.fromStack(stack).findResources('AWS::IAM::Policy'));
    expect(policies).toHaveLength(1);
    const statements = policies[0]?.Properties.PolicyDocument.Statement as { Resource: string }[];
    expect(statements).toHaveLength(1);
    expect(statements[0]?.Resource).toMatch(new RegExp(`^${arn}(/\\*)?$`));
  });

  it('gives the judge worker, and no other function, the engine secret by ARN and the right to read it', () => {
    const assay = enginesAssay();
    const judgeWorker = assay.stack.functions.judgeWorker;

    for (const assayFunction of assay.stack.functions.all) {
      const variables = (
        propertiesOf(assay.template, functionLogicalId(assayFunction)) as { Environment: { Variables: Record<string, unknown> } }
      ).Environment.Variables;
      expect(variables.ASSAY_ENGINE_SECRET_ARN, assayFunction.node.id).toBe(
        assayFunction === judgeWorker ? ENGINES_CONTEXT.engineSecretArn : undefined,
      );
    }
    const readers = allowStatements(assay).filter(({ statement }) => asList(statement.Resource).includes(ENGINES_CONTEXT.engineSecretArn));
    expect(readers.flatMap(({ roles }) => roles)).toEqual([roleLogicalId(judgeWorker)]);
    expect(asList(readers[0]?.statement.Action ?? [])).toContain('secretsmanager:GetSecretValue');
  });

  it('creates no secret for the engines and has no engine secret by default', () => {
    const assay = defaultAssay();
    const engines = enginesAssay();

    expect(assay.stack.engineSecret).toBeUndefined();
    for (const assayFunction of assay.stack.functions.all) {
      expect(propertiesOf(assay.template, functionLogicalId(assayFunction))).not.toHaveProperty(
        'Environment.Variables.ASSAY_ENGINE_SECRET_ARN',
      );
    }
    // Only the judge key's secret, created without a value, in either variant.
    engines.template.resourceCountIs('AWS::SecretsManager::Secret', 1);
    expect(JSON.stringify(engines.template.toJSON())).not.toMatch(/"(Generate)?SecretString"/);
  });

  it('puts the judge worker, and no other function, in the given subnets with a security group that accepts no connections', () => {
    const assay = enginesAssay();
    const judgeWorker = assay.stack.functions.judgeWorker;
    const [created] = assay.stack.engineNetwork?.securityGroups ?? [];
    if (created === undefined) throw new Error('Expected the stack to create the judge worker a security group');

    const vpcConfig = propertiesOf(assay.template, functionLogicalId(judgeWorker)).VpcConfig as VpcConfig;

    expect(vpcConfig.SubnetIds).toEqual(listed(ENGINES_CONTEXT.engineSubnetIds));
    expect(vpcConfig.SecurityGroupIds).toEqual([{ 'Fn::GetAtt': [logicalIdOf(created), 'GroupId'] }]);
    const securityGroups = Object.values(assay.template.findResources('AWS::EC2::SecurityGroup'));
    expect(securityGroups).toHaveLength(1);
    expect(securityGroups[0]?.Properties).toMatchObject({
      VpcId: ENGINES_CONTEXT.engineVpcId,
      SecurityGroupEgress: [{ CidrIp: '0.0.0.0/0', IpProtocol: '-1' }],
    });
    expect(securityGroups[0]?.Properties).not.toHaveProperty('SecurityGroupIngress');
    for (const other of assay.stack.functions.all.filter((assayFunction) => assayFunction !== judgeWorker)) {
      expect(propertiesOf(assay.template, functionLogicalId(other)), other.node.id).not.toHaveProperty('VpcConfig');
    }
  });

  it('lets Lambda manage the network interfaces of the judge worker in a VPC, and of no function by default', () => {
    const engines = enginesAssay();
    const assay = defaultAssay();

    expect(managedPoliciesOf(engines, roleLogicalId(engines.stack.functions.judgeWorker))).toEqual([expect.stringContaining(ENI_POLICY)]);
    for (const other of engines.stack.functions.all.filter((assayFunction) => assayFunction !== engines.stack.functions.judgeWorker)) {
      expect(managedPoliciesOf(engines, roleLogicalId(other)), other.node.id).toEqual([]);
    }
    expect(propertiesOf(assay.template, functionLogicalId(assay.stack.functions.judgeWorker))).not.toHaveProperty('VpcConfig');
    expect(managedPoliciesOf(assay, roleLogicalId(assay.stack.functions.judgeWorker))).toEqual([]);
    assay.template.resourceCountIs('AWS::EC2::SecurityGroup', 0);
  });

  it('uses the given security groups instead of creating one', () => {
    const stack = new Stack(testApp(), 'Probe');

    const network = new EngineNetwork(stack, 'Network', {
      vpcId: ENGINES_CONTEXT.engineVpcId,
      subnetIds: ['subnet-0123456789abcdef0'],
      securityGroupIds: ['sg-0123456789abcdef0', 'sg-0fedcba9'],
    });

    expect(network.securityGroups.map((group) => group.securityGroupId)).toEqual(['sg-0123456789abcdef0', 'sg-0fedcba9']);
    Template.fromStack(stack).resourceCountIs('AWS::EC2::SecurityGroup', 0);
  });
});
