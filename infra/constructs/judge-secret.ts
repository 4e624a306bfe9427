import { Validations } from 'aws-cdk-lib';
import type { CfnSecret, ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

export interface JudgeSecretProps {
  /** An existing secret; absent: the stack creates one. */
  readonly importArn?: string | undefined;
}

/**
 * The judge API key's secret. Its SecretString is the key itself. The stack
 * creates it without a value: CloudFormation would otherwise store a value
 * given here in the template, and a generated random string is no API key.
 * Until `aws secretsmanager put-secret-value` gives it one, the judge worker
 * cannot read it and fails its cases loudly instead of judging with another
 * judge than the manifest names.
 */
export class JudgeSecret extends Construct {
  readonly secret: ISecret;

  constructor(scope: Construct, id: string, props: JudgeSecretProps) {
    super(scope, id);
    if (props.importArn !== undefined) {
      this.secret = importSecret(this, 'Imported', props.importArn);
      return;
    }
    const created = new Secret(this, 'ApiKey', {
      description: 'assay: the API key of the OpenAI-compatible judge server (the SecretString is the key)',
    });
    // The L2 construct always asks CloudFormation to generate a value; without one the secret starts empty.
    (created.node.defaultChild as CfnSecret).addPropertyDeletionOverride('GenerateSecretString');
    Validations.of(created).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The secret holds an API key issued by the judge provider; only the provider can issue a new one, so it is rotated by hand with put-secret-value rather than by a rotation Lambda',
    });
    this.secret = created;
  }
}

/** An existing secret by its ARN. A complete ARN ends in the six characters Secrets Manager appends to the name; a partial one is granted with `-??????`. */
export function importSecret(scope: Construct, id: string, arn: string): ISecret {
  return /-[A-Za-z0-9]{6}$/.test(arn) ? Secret.fromSecretCompleteArn(scope, id, arn) : Secret.fromSecretPartialArn(scope, id, arn);
}
