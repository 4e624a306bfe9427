import { Stack, Validations } from 'aws-cdk-lib';
import { type IRole, Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';

export interface JudgeModelAccessProps {
  /** The role that calls the models: the judge worker's. */
  readonly role: IRole;
  /** Bedrock model ids (or cross-region inference profile ids) the judges ask, in the stack's region. */
  readonly modelIds: readonly string[];
}

/** The geographies of Bedrock's cross-region inference profiles: `us.anthropic...` is a profile, not a model. */
const PROFILE_PREFIX = /^(us|us-gov|eu|apac|jp|au|ca|global)\.(.+)$/;

/**
 * What Bedrock judges may call: bedrock:InvokeModel (which Converse is
 * authorized as) on exactly the models the deployment names, in the stack's
 * region, derived from their ids. A cross-region inference profile is granted
 * in the stack's account and region, and so is its model in the regions the
 * profile routes to, which Bedrock authorizes as well; those regions are the
 * profile's to choose, hence the one wildcard.
 */
export class JudgeModelAccess extends Construct {
  readonly policy: Policy;

  constructor(scope: Construct, id: string, props: JudgeModelAccessProps) {
    super(scope, id);
    const resources = modelResources(Stack.of(this), props.modelIds);
    this.policy = new Policy(this, 'Policy', {
      roles: [props.role],
      statements: [new PolicyStatement({ actions: ['bedrock:InvokeModel'], resources })],
    });
    acknowledgeProfileRegions(this.policy, props.modelIds);
  }
}

/** The ARNs a grant on the models names: each model in the stack's region; a profile in the stack's account and region, and its model in any region. */
export function modelResources(stack: Stack, modelIds: readonly string[]): string[] {
  return [...new Set(modelIds)].flatMap((modelId) => {
    const profile = PROFILE_PREFIX.exec(modelId);
    if (profile === null)
      return [stack.formatArn({ service: 'bedrock', account: '', resource: 'foundation-model', resourceName: modelId })];
    return [
      stack.formatArn({ service: 'bedrock', resource: 'inference-profile', resourceName: modelId }),
      stack.formatArn({ service: 'bedrock', region: '*', account: '', resource: 'foundation-model', resourceName: profile[2] }),
    ];
  });
}

/** The one wildcard a profile's grant keeps, acknowledged on the policy that holds it. */
export function acknowledgeProfileRegions(policy: Policy, modelIds: readonly string[]): void {
  for (const modelId of new Set(modelIds)) {
    const profile = PROFILE_PREFIX.exec(modelId);
    if (profile === null) continue;
    Validations.of(policy).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/${profile[2]}]`,
      reason: `The inference profile ${modelId} routes each call to ${profile[2]} in one of the profile's regions, and Bedrock authorizes the model there too; the regions are the profile's, so the grant names the model in any region`,
    });
  }
}
