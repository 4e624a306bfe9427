import { join } from 'node:path';
import { Duration, Size, Validations } from 'aws-cdk-lib';
import type { ISecurityGroup, ISubnet, IVpc } from 'aws-cdk-lib/aws-ec2';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** The repository root: the functions' entry files and the lock file live there. */
export const PROJECT_ROOT = join(import.meta.dirname, '..', '..');

/** Powertools' service name; it is also the `service` dimension of every metric the functions publish. */
export const SERVICE_NAME = 'assay';
export const METRICS_NAMESPACE = 'assay';

/**
 * esbuild writes an ES module, but some dependencies are CommonJS and call
 * `require` for Node built-ins, which an ES module does not have: the banner
 * gives the bundle one. The alias keeps it from clashing with a bundled
 * `createRequire` import.
 */
const REQUIRE_BANNER =
  "import { createRequire as assayCreateRequire } from 'node:module'; const require = assayCreateRequire(import.meta.url);";

export interface AssayFunctionProps {
  /** The handler file in functions/, without the extension: `ingest`, `judge-worker`, ... */
  readonly handlerFile: string;
  readonly description: string;
  readonly timeout: Duration;
  readonly memoryMiB: number;
  /** Local disk for datasets and spool files; Lambda's default is 512 MiB. */
  readonly ephemeralStorageMiB?: number;
  readonly environment: Record<string, string>;
  readonly logRetention: RetentionDays;
  /** Where Lambda puts an asynchronous event (S3 notification, schedule) that failed all its retries. */
  readonly deadLetterQueue?: IQueue;
  /** Runs the function in these subnets of a VPC, with these security groups. */
  readonly network?: FunctionNetwork;
  /** Concurrency reserved for the function, which is also the most it may run at once. */
  readonly reservedConcurrency?: number | undefined;
}

export interface FunctionNetwork {
  readonly vpc: IVpc;
  readonly subnets: ISubnet[];
  readonly securityGroups: ISecurityGroup[];
}

/** What Lambda needs to attach a function to a VPC: create, describe and delete its network interfaces, nothing else. */
const NETWORK_INTERFACES_POLICY = 'service-role/AWSLambdaENIManagementAccess';

/**
 * Every function of the pipeline, with the defaults they all share in one
 * place: Node.js 24 on arm64 (about 20% cheaper per GB-second than x86),
 * bundled locally with esbuild (no Docker), the AWS SDK left to the runtime,
 * a log group with a retention period, and a role of its own that can write
 * to that log group and nothing else until a construct grants more.
 */
export class AssayFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: AssayFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention });
    // An own role instead of the AWSLambdaBasicExecutionRole managed policy, which may write to every log group.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of: ${props.description}`,
    });
    this.logGroup.grantWrite(this.role);
    if (props.network !== undefined) this.allowNetworkInterfaces();
    this.function = new NodejsFunction(this, 'Function', {
      entry: join(PROJECT_ROOT, 'functions', `${props.handlerFile}.ts`),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      description: props.description,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      timeout: props.timeout,
      memorySize: props.memoryMiB,
      ephemeralStorageSize: Size.mebibytes(props.ephemeralStorageMiB ?? 512),
      role: this.role,
      logGroup: this.logGroup,
      environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
      deadLetterQueue: props.deadLetterQueue,
      ...(props.reservedConcurrency === undefined ? {} : { reservedConcurrentExecutions: props.reservedConcurrency }),
      ...(props.network === undefined
        ? {}
        : { vpc: props.network.vpc, vpcSubnets: { subnets: props.network.subnets }, securityGroups: props.network.securityGroups }),
      bundling: {
        forceDockerBundling: false,
        format: OutputFormat.ESM,
        target: 'node24',
        mainFields: ['module', 'main'],
        banner: REQUIRE_BANNER,
        minify: true,
        // Minified stack traces are unreadable; source maps without the sources keep the bundle small.
        sourceMap: true,
        sourcesContent: false,
        // The Node.js 24 runtime ships AWS SDK v3; bundling it again would only slow cold starts.
        // pg-native is pg's optional libpq binding, required only if asked for (pg.native); the pure JavaScript client is used.
        externalModules: ['@aws-sdk/*', 'pg-native'],
        // index.meta.json beside the bundle: what went in and what was left out, checked by test/infra.
        metafile: true,
        logLevel: LogLevel.WARNING,
      },
    });
  }

  /**
   * The EC2 actions Lambda uses to manage a VPC function's network interfaces
   * cannot be scoped to resources (DescribeNetworkInterfaces only works on
   * "*"), so the one AWS managed policy that holds exactly them is attached.
   */
  private allowNetworkInterfaces(): void {
    const policy = ManagedPolicy.fromAwsManagedPolicyName(NETWORK_INTERFACES_POLICY);
    this.role.addManagedPolicy(policy);
    Validations.of(this.role).acknowledge({
      id: `AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/${NETWORK_INTERFACES_POLICY}]`,
      reason:
        'A function in a VPC needs Lambda to create, describe and delete its network interfaces; those EC2 actions take no resource scoping, and this managed policy grants only them (no logging or other rights)',
    });
  }
}

/** Lambda's SQS poller wants at least this much headroom: six times the function timeout, plus the batching window. */
export function visibilityTimeoutFor(functionTimeout: Duration, batchingWindow: Duration = Duration.seconds(0)): Duration {
  return Duration.seconds(6 * functionTimeout.toSeconds() + batchingWindow.toSeconds());
}
