import { Annotations, Fn } from 'aws-cdk-lib';
import { type ISecurityGroup, type ISubnet, type IVpc, SecurityGroup, Subnet, Vpc } from 'aws-cdk-lib/aws-ec2';
import { Construct } from 'constructs';

export interface EngineNetworkProps {
  readonly vpcId: string;
  readonly subnetIds: readonly string[];
  /** Security groups to give the judge worker; none: the stack creates one that allows all outbound traffic and no inbound. */
  readonly securityGroupIds: readonly string[];
}

/**
 * Where the judge worker runs when its engines are on private endpoints: an
 * existing VPC and subnets, named by id, so synthesis looks nothing up and
 * needs no AWS account. The function reaches S3, SQS and Secrets Manager
 * through the VPC (endpoints or a NAT gateway), which the stack does not
 * create.
 */
export class EngineNetwork extends Construct {
  readonly vpc: IVpc;
  readonly subnets: ISubnet[];
  readonly securityGroups: ISecurityGroup[];

  constructor(scope: Construct, id: string, props: EngineNetworkProps) {
    super(scope, id);
    // The subnets are given one by one, so the VPC's zones (here the region's, never resolved) and subnets are never consulted.
    this.vpc = Vpc.fromVpcAttributes(this, 'Vpc', { vpcId: props.vpcId, availabilityZones: Fn.getAzs() });
    this.subnets = props.subnetIds.map((subnetId) => {
      const subnet = Subnet.fromSubnetId(this, subnetId, subnetId);
      Annotations.of(subnet).acknowledgeWarning(
        '@aws-cdk/aws-ec2:noSubnetRouteTableId',
        'The subnet only places the function; nothing in the stack adds routes to it',
      );
      return subnet;
    });
    this.securityGroups =
      props.securityGroupIds.length > 0
        ? props.securityGroupIds.map((groupId) => SecurityGroup.fromSecurityGroupId(this, groupId, groupId, { mutable: false }))
        : [
            new SecurityGroup(this, 'JudgeWorker', {
              vpc: this.vpc,
              description: 'assay judge worker: calls the live engines and AWS endpoints; accepts no connections',
              allowAllOutbound: true,
            }),
          ];
  }
}
