import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { arnWildcardFinding } from './nag-findings.js';

/** The bucket's top-level prefixes; each function is granted only the ones it touches. */
export type DataPrefix = 'datasets/' | 'config/' | 'canaries/' | 'runs/' | 'reports/' | 'baselines/' | 'cache/' | 'dead-letters/';

export interface DataBucketProps {
  readonly cacheExpirationDays: number;
  readonly runsExpirationDays: number;
  readonly accessLogExpirationDays: number;
  /** How long an overwritten or deleted object's earlier version is kept. */
  readonly noncurrentVersionExpirationDays: number;
}

/**
 * The pipeline's bucket (datasets, suite configs, runs, reports, baseline
 * pointers, the judge cache, dead letters) and the bucket its server access logs go to. Both are
 * private, encrypted with S3-managed keys (no KMS request charges on the
 * thousands of small objects a run writes) and reachable over TLS only.
 *
 * The data bucket is versioned, so a dataset, suite config, baseline pointer
 * or report that is overwritten or deleted by mistake can be restored. The
 * pipeline overwrites on purpose too (a redelivered case's result,
 * `latest.json` after every run), so earlier versions expire after
 * noncurrentVersionExpirationDays: long enough to notice a mistake and
 * restore, short enough that the versions do not grow the bill run after run.
 */
export class DataBucket extends Construct {
  readonly bucket: Bucket;
  readonly accessLogs: Bucket;

  constructor(scope: Construct, id: string, props: DataBucketProps) {
    super(scope, id);
    this.accessLogs = new Bucket(this, 'AccessLogs', {
      // S3 server access logging delivers only to buckets encrypted with S3-managed keys.
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(props.accessLogExpirationDays) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.bucket = new Bucket(this, 'Data', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'data-bucket/',
      versioned: true,
      lifecycleRules: [
        // Judgments are content-addressed: an expired entry is only judged again.
        { id: 'expire-judge-cache', prefix: 'cache/', expiration: Duration.days(props.cacheExpirationDays) },
        // A run's working records; its report under reports/ is kept.
        { id: 'expire-runs', prefix: 'runs/', expiration: Duration.days(props.runsExpirationDays) },
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(7) },
        // Expiring a current version under versioning leaves a delete marker; once its earlier versions expire, the marker goes too.
        {
          id: 'expire-noncurrent-versions',
          noncurrentVersionExpiration: Duration.days(props.noncurrentVersionExpirationDays),
          expiredObjectDeleteMarker: true,
        },
      ],
      // Datasets and reports outlive the stack: deleting the stack leaves the bucket.
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /** s3:GetObject on the objects under the prefixes. */
  grantReadObjects(grantee: IGrantable, ...prefixes: DataPrefix[]): Grant {
    return this.grantOnObjects(grantee, ['s3:GetObject'], prefixes);
  }

  /** s3:PutObject under the prefixes (conditional writes with If-None-Match need no more). */
  grantWriteObjects(grantee: IGrantable, ...prefixes: DataPrefix[]): Grant {
    return this.grantOnObjects(grantee, ['s3:PutObject'], prefixes);
  }

  /**
   * s3:ListBucket on the whole bucket, with no `s3:prefix` condition. Every
   * function that reads needs it, even one that never lists: S3 answers a GET
   * of a missing key with 404 only to a caller that may ListBucket, and with
   * 403 to any other, and the pipeline reads absent keys all the time (a
   * suite without `config/<suite>.yaml`, a judge cache miss, `ingested.json`).
   * Whether S3 counts a grant conditioned on `s3:prefix` for that check is
   * not documented, and no emulator checks it; if it does not, every ingest
   * would fail on its absent config. Unconditioned, it works either way, and
   * it reveals key names only (run ids, case ids, suite names), never an
   * object's content, which GetObject keeps to each function's prefixes.
   */
  grantList(grantee: IGrantable): Grant {
    return Grant.addToPrincipal({ grantee, actions: ['s3:ListBucket'], resourceArns: [this.bucket.bucketArn] });
  }

  /**
   * The finding cdk-nag reports for an object ARN under a prefix, which ends
   * in `*` by necessity: the keys under it are created at run time.
   */
  objectWildcardFinding(prefix: DataPrefix): string {
    return arnWildcardFinding(this.bucket.node.defaultChild as CfnBucket, `/${prefix}*`);
  }

  private grantOnObjects(grantee: IGrantable, actions: string[], prefixes: DataPrefix[]): Grant {
    return Grant.addToPrincipal({ grantee, actions, resourceArns: prefixes.map((prefix) => this.bucket.arnForObjects(`${prefix}*`)) });
  }
}
