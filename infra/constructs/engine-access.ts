import { Validations } from 'aws-cdk-lib';
import { type IRole, Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';

export interface EngineAccessProps {
  /** The role that calls the engines: the judge worker's. */
  readonly role: IRole;
  readonly knowledgeBaseArns: readonly string[];
  readonly modelArns: readonly string[];
  readonly functionArns: readonly string[];
  readonly openSearchDomainArns: readonly string[];
  readonly openSearchCollectionArns: readonly string[];
}

/**
 * What the live engines on AWS may be asked, granted to the judge worker for
 * exactly the resources the deployment names: Bedrock knowledge bases
 * (Retrieve, RetrieveAndGenerate) and the models that generate their answers,
 * Lambda functions, OpenSearch Service domains and Serverless collections.
 * Nothing is granted, and no policy exists, while every list is empty.
 */
export class EngineAccess extends Construct {
  /** Undefined when the deployment names no engine resource. */
  readonly policy: Policy | undefined;

  constructor(scope: Construct, id: string, props: EngineAccessProps) {
    super(scope, id);
    const statements = [
      statement(['bedrock:Retrieve', 'bedrock:RetrieveAndGenerate'], props.knowledgeBaseArns),
      statement(['bedrock:InvokeModel'], props.modelArns),
      statement(['lambda:InvokeFunction'], props.functionArns),
      // OpenSearch Service authorizes a request on its path under the domain: /<index>/_search is domain/<name>/<index>/_search.
      statement(
        ['es:ESHttpGet', 'es:ESHttpPost'],
        props.openSearchDomainArns.map((arn) => `${arn}/*`),
      ),
      // Serverless authorizes the collection here and the index in the collection's data access policy.
      statement(['aoss:APIAccessAll'], props.openSearchCollectionArns),
    ].filter((candidate) => candidate !== undefined);
    if (statements.length === 0) {
      this.policy = undefined;
      return;
    }
    this.policy = new Policy(this, 'Policy', { roles: [props.role], statements });
    for (const arn of props.openSearchDomainArns) {
      Validations.of(this.policy).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${arn}/*]`,
        reason: `OpenSearch Service authorizes each HTTP request on its path under the domain (index names and _search), so the grant names the paths of the one domain ${arn}, not each index`,
      });
    }
  }
}

function statement(actions: string[], resources: readonly string[]): PolicyStatement | undefined {
  return resources.length === 0 ? undefined : new PolicyStatement({ actions, resources: [...resources] });
}
