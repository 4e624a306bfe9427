import { type CfnResource, Stack } from 'aws-cdk-lib';

/**
 * The id cdk-nag gives a wildcard resource built on another resource's ARN,
 * e.g. `AwsSolutions-IAM5[Resource::<DataBucket1234.Arn>/runs/*]`: it names
 * the logical id, so it is computed rather than written out by hand.
 */
export function arnWildcardFinding(resource: CfnResource, suffix: string): string {
  const stack = Stack.of(resource);
  const logicalId: unknown = stack.resolve(stack.getLogicalId(resource));
  return `AwsSolutions-IAM5[Resource::<${String(logicalId)}.Arn>${suffix}]`;
}
