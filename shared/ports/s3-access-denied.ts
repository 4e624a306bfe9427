/** What a caller was doing when S3 refused it, and so which permission it lacks. */
export type S3Access = 'read' | 'write' | 'list';

const NEEDS: Record<S3Access, string> = {
  // Without ListBucket, S3 hides whether a key exists: a missing key is a 403 too, never a 404.
  read: 's3:GetObject on that key, and s3:ListBucket on the bucket (without it S3 answers a missing key with 403, not 404)',
  write: 's3:PutObject on that key',
  list: 's3:ListBucket on the bucket',
};

const DOING: Record<S3Access, string> = { read: 'reading', write: 'writing', list: 'listing' };

/**
 * S3's 403 AccessDenied, said with the object it was about and the
 * permission the caller needs; undefined for any other error. The SDK's own
 * message names neither the key nor the action when S3 answers a GET with a
 * bare 403, so without this a missing grant shows up as "Access Denied" in
 * the middle of a run. It is never taken for "absent": that would turn a
 * wrong deployment into silently missing configs and cache entries.
 */
export function accessDeniedError(error: unknown, bucket: string, keyOrPrefix: string, access: S3Access): Error | undefined {
  const shape = (typeof error === 'object' && error !== null ? error : {}) as {
    name?: unknown;
    message?: unknown;
    $metadata?: { httpStatusCode?: unknown };
  };
  const status = shape.$metadata?.httpStatusCode;
  // A 403 with another code (InvalidAccessKeyId, SignatureDoesNotMatch, ExpiredToken) is about the credentials, not a grant.
  const bodyless = status === 403 && (shape.name === 'Unknown' || shape.name === 'UnknownError' || shape.name === 'Forbidden');
  if (shape.name !== 'AccessDenied' && !bodyless) return undefined;
  const answer = bodyless
    ? '403 without a body'
    : `403 AccessDenied${typeof shape.message === 'string' && shape.message !== '' ? `: ${shape.message}` : ''}`;
  return new Error(`S3 refused ${DOING[access]} s3://${bucket}/${keyOrPrefix} (${answer}); the caller's role needs ${NEEDS[access]}`, {
    cause: error,
  });
}
