import { createAwsClients } from '../../shared/ports/aws-clients.js';
import { S3Store } from '../../shared/ports/s3-store.js';

/** The deployed stack's bucket, at AWS or at --aws-endpoint (an emulator), with the usual credential chain. */
export function bucketStore(bucket: string, endpoint: string | undefined): S3Store {
  return new S3Store(createAwsClients({ endpoint }).s3, bucket, endpoint === undefined ? {} : { endpoint });
}
