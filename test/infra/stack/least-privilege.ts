import { Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import type { DataPrefix } from '../../../infra/constructs/data-bucket.js';
import { allowStatements, asList } from '../support/iam-statements.js';
import {
  bedrockAssay,
  CUSTOM_CONTEXT,
  customizedAssay,
  defaultAssay,
  enginesAssay,
  judgeSecretOf,
  logicalIdOf,
  roleLogicalId,
  type SynthesizedAssay,
  testApp,
} from '../support/assay-app.js';

type FunctionName = 'ingest' | 'judgeWorker' | 'failureRecorder' | 'reducer' | 'scheduledTrigger';

/** The prefixes of the object ARNs a role may use an action on, read back from `<bucket ARN>/<prefix>*`. */
function prefixesFor(assay: SynthesizedAssay, role: string, action: string): string[] {
  const bucket = logicalIdOf(assay.stack.data.bucket);
  return allowStatements(assay)
    .filter(({ roles, statement }) => roles.includes(role) && asList(statement.Action).includes(action))
    .flatMap(({ statement }) => asList(statement.Resource))
    .map((resource) => JSON.stringify(resource))
    .map(
      (resource) =>
        new RegExp(`^\\{"Fn::Join":\\["",\\[\\{"Fn::GetAtt":\\["${bucket}","Arn"\\]\\},"/([a-z-]+/)\\*"\\]\\]\\}$`).exec(resource)?.[1] ??
        `not a prefix: ${resource}`,
    )
    .sort();
}

describe('least privilege', () => {
  it.each<[FunctionName, DataPrefix[], DataPrefix[]]>([
    ['ingest', ['canaries/', 'config/', 'datasets/', 'runs/'], ['runs/']],
    ['judgeWorker', ['cache/', 'runs/'], ['cache/', 'runs/']],
    ['failureRecorder', ['runs/'], ['dead-letters/', 'runs/']],
    ['reducer', ['baselines/', 'reports/', 'runs/'], ['reports/', 'runs/']],
    ['scheduledTrigger', ['canaries/', 'config/', 'datasets/', 'runs/'], ['runs/']],
  ])('the %s reads objects under %j and writes under %j only', (name, reads, writes) => {
    const assay = defaultAssay();
    const role = roleLogicalId(assay.stack.functions[name]);

    expect(prefixesFor(assay, role, 's3:GetObject')).toEqual(reads);
    expect(prefixesFor(assay, role, 's3:PutObject')).toEqual(writes);
  });

  it.each<FunctionName>(['ingest', 'judgeWorker', 'failureRecorder', 'reducer', 'scheduledTrigger'])(
    'the %s may list the bucket with no s3:prefix condition, so that S3 answers a missing key with 404, not 403',
    (name) => {
      // Whether S3 honours a prefix-conditioned ListBucket when it decides between 404 and 403 is undocumented: none is used.
      const assay = defaultAssay();
      const role = roleLogicalId(assay.stack.functions[name]);

      const listings = allowStatements(assay)
        .filter(({ roles, statement }) => roles.includes(role) && asList(statement.Action).includes('s3:ListBucket'))
        .map(({ statement }) => statement);

      expect(listings).toHaveLength(1);
      expect(listings[0]?.Resource).toEqual({ 'Fn::GetAtt': [logicalIdOf(assay.stack.data.bucket), 'Arn'] });
      expect(listings[0]?.Condition).toBeUndefined();
    },
  );

  it('lets only the judge worker and the reducer (which submits and collects batch jobs) read the judge secret', () => {
    const assay = defaultAssay();
    const readers = allowStatements(assay).filter(({ statement }) => asList(statement.Action).includes('secretsmanager:GetSecretValue'));

    expect(readers.flatMap(({ roles }) => roles).sort()).toEqual(
      [roleLogicalId(assay.stack.functions.judgeWorker), roleLogicalId(assay.stack.functions.reducer)].sort(),
    );
    expect(readers.map(({ statement }) => statement.Resource)).toEqual([
      { Ref: logicalIdOf(judgeSecretOf(assay)) },
      { Ref: logicalIdOf(judgeSecretOf(assay)) },
    ]);
  });

  it('grants the judge worker and the reducer read on an imported secret by its ARN, and creates none', () => {
    const imported = customizedAssay();

    imported.template.resourceCountIs('AWS::SecretsManager::Secret', 0);
    const readers = allowStatements(imported).filter(({ statement }) => asList(statement.Action).includes('secretsmanager:GetSecretValue'));
    expect(readers.flatMap(({ roles }) => roles).sort()).toEqual(
      [roleLogicalId(imported.stack.functions.judgeWorker), roleLogicalId(imported.stack.functions.reducer)].sort(),
    );
    expect(readers.map(({ statement }) => statement.Resource)).toEqual([CUSTOM_CONTEXT.judgeSecretArn, CUSTOM_CONTEXT.judgeSecretArn]);
  });

  it('creates the secret without a value, so no key is ever in the template', () => {
    const assay = defaultAssay();
    const secrets = Object.values(assay.template.findResources('AWS::SecretsManager::Secret'));

    expect(secrets).toHaveLength(1);
    expect(secrets[0]?.Properties).not.toHaveProperty('SecretString');
    expect(secrets[0]?.Properties).not.toHaveProperty('GenerateSecretString');
  });

  it.each([
    ['default', defaultAssay],
    ['customized', customizedAssay],
  ])('has no IAM statement with a wildcard action, or with Resource "*" (%s settings)', (_name, synthesize) => {
    const assay = synthesize();
    const statements = allowStatements(assay).map(({ statement }) => statement);

    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      for (const action of asList(statement.Action)) expect(action).not.toMatch(/\*/);
      expect(asList(statement.Resource)).not.toContain('*');
    }
    const managedPolicies = Object.values(assay.template.findResources('AWS::IAM::Role')).flatMap(
      (role) => (role.Properties.ManagedPolicyArns ?? []) as unknown[],
    );
    // Only CDK's bucket-notification handler has one (acknowledged): the logging policy.
    expect(managedPolicies.map((arn) => JSON.stringify(arn))).toEqual([
      expect.stringContaining('service-role/AWSLambdaBasicExecutionRole'),
    ]);
  });
});

describe('cdk-nag (AWS Solutions)', () => {
  it.each([
    ['default', defaultAssay],
    ['customized', customizedAssay],
    ['live engines', enginesAssay],
    ['Bedrock judges', bedrockAssay],
  ])('passes: the app with %s settings synthesizes, every finding acknowledged', (_name, synthesize) => {
    expect(() => synthesize()).not.toThrow();
  });

  it.each([
    ['default', defaultAssay],
    ['customized', customizedAssay],
    ['live engines', enginesAssay],
    ['Bedrock judges', bedrockAssay],
  ])('acknowledges only findings the checks really report, each with a reason (%s settings)', (_name, synthesize) => {
    // Prepare: the same checks with acknowledgements ignored report every raw finding.
    const assay = synthesize();
    const unfiltered = new AwsSolutionsChecks(assay.app);
    Object.defineProperty(unfiltered, 'isAcknowledged', { value: () => false });

    // Act
    const findings = new Set(unfiltered.validateScope(assay.stack).violations.map((violation) => violation.ruleName));
    const acknowledgements = assay.stack.node
      .findAll()
      .flatMap((construct) => construct.node.metadata)
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>))
      .map(([id, reason]) => ({ id: id.replace(/^annotation::/i, ''), reason }));

    // Assess
    expect(acknowledgements.length).toBeGreaterThan(0);
    for (const { id, reason } of acknowledgements) {
      expect(findings, id).toContain(id);
      expect(reason.length, id).toBeGreaterThan(40);
    }
    // No bulk acknowledgement: every wildcard finding names its exact resource.
    expect(acknowledgements.filter(({ id }) => id.startsWith('AwsSolutions-IAM') && !id.includes('['))).toEqual([]);
  });

  it('is live: an unacknowledged wildcard fails the synthesis', () => {
    const app = testApp({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new Stack(app, 'Probe');
    new Role(stack, 'TooBroad', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') }).addToPolicy(
      new PolicyStatement({ actions: ['s3:GetObject'], resources: ['*'] }),
    );
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

    expect(() => app.synth()).toThrow(/AwsSolutions-IAM5\[Resource::\*\]/);
  });
});
