import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type GetObjectCommandOutput,
  type S3Client,
} from '@aws-sdk/client-s3';
import { assertValidKey, type ObjectStore, type VersionedObjects } from './object-store.js';
import { accessDeniedError, type S3Access } from './s3-access-denied.js';
import { awsEndpointFaultOf } from './aws-endpoint-fault.js';

export interface S3StoreOptions {
  /** Keys per ListObjectsV2 page (S3's maximum and default is 1000); smaller only to exercise paging. */
  readonly pageSize?: number;
  /**
   * Look for the key (HeadObject) before a write-once put, and refuse it where
   * the key exists: for an S3 that ignores If-None-Match (write-once-probe.ts).
   * It narrows the window in which two writers both write; only the header closes it.
   */
  readonly lookBeforeWriteOnce?: boolean;
  /** The endpoint the client talks to (`--aws-endpoint`), for the error that says nothing answers there; absent for AWS. */
  readonly endpoint?: string;
}

/**
 * An ObjectStore in an S3 bucket (or any S3-compatible service). Conditional
 * writes use `If-None-Match: *`, which S3 enforces atomically: of two writers,
 * the second gets 412 Precondition Failed (or 409 when both race in flight)
 * and `written: false`, unless the refused write was a retry of one whose
 * answer was lost after S3 stored it (the object then holds its bytes).
 * Listing follows S3's own order, UTF-8 byte order. An object's version is
 * its ETag (VersionedObjects).
 */
export class S3Store implements ObjectStore, VersionedObjects {
  private readonly pageSize: number | undefined;
  private readonly lookBeforeWriteOnce: boolean;
  private readonly endpoint: string | undefined;

  constructor(
    private readonly client: S3Client,
    readonly bucket: string,
    options: S3StoreOptions = {},
  ) {
    this.pageSize = options.pageSize;
    this.lookBeforeWriteOnce = options.lookBeforeWriteOnce === true;
    this.endpoint = options.endpoint;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    return (await this.getVersioned(key))?.bytes;
  }

  async getVersioned(key: string): Promise<{ bytes: Uint8Array; version: string } | undefined> {
    const response = await this.getObject(key);
    if (response === undefined) return undefined;
    const bytes = response.Body === undefined ? new Uint8Array() : await response.Body.transformToByteArray();
    return { bytes, version: versionOf(response.ETag) };
  }

  async versionOf(key: string): Promise<string | undefined> {
    assertValidKey(key);
    try {
      return versionOf((await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }))).ETag);
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw this.explained(error, key, 'read');
    }
  }

  /** GetObject's answer, or undefined when there is no such object. */
  private async getObject(key: string): Promise<GetObjectCommandOutput | undefined> {
    assertValidKey(key);
    try {
      return await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      // A web server's 404 page is no "no such key": the endpoint is not S3 at all.
      if (isMissingObject(error) && awsEndpointFaultOf(error, this.endpoint) === undefined) return undefined;
      throw this.explained(error, key, 'read');
    }
  }

  async put(key: string, body: Uint8Array | string, options: { ifNoneMatch?: boolean } = {}): Promise<{ written: boolean }> {
    assertValidKey(key);
    if (options.ifNoneMatch && this.lookBeforeWriteOnce && (await this.versionOf(key)) !== undefined) return { written: false };
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: body,
          ContentType: contentTypeOf(key),
          ...(options.ifNoneMatch ? { IfNoneMatch: '*' } : {}),
        }),
      );
      return { written: true };
    } catch (error) {
      if (options.ifNoneMatch && isLostConditionalWrite(error)) return { written: await this.writtenByEarlierAttempt(error, key, body) };
      throw this.explained(error, key, 'write');
    }
  }

  /**
   * Whether a conditional write the SDK sent more than once was refused
   * because its own earlier attempt stored it: S3 stored the object, its answer
   * was lost (a cut connection, a 500 after the write), and the retry found
   * the key taken. The object then holds exactly these bytes. A refusal at the
   * first attempt is another writer's, and costs no read.
   */
  private async writtenByEarlierAttempt(error: unknown, key: string, body: Uint8Array | string): Promise<boolean> {
    if (attemptsOf(error) < 2) return false;
    const stored = await this.get(key);
    return stored !== undefined && Buffer.from(stored).equals(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
  }

  async download(key: string, path: string): Promise<boolean> {
    return (await this.downloadVersioned(key, path)) !== undefined;
  }

  async downloadVersioned(key: string, path: string): Promise<string | undefined> {
    const response = await this.getObject(key);
    if (response === undefined) return undefined;
    const body = response.Body;
    const source = body === undefined ? Readable.from([]) : body instanceof Readable ? body : Readable.fromWeb(body.transformToWebStream());
    try {
      await pipeline(source, createWriteStream(path));
    } catch (error) {
      // A half-written file would pass for the whole dataset.
      await rm(path, { force: true });
      throw error;
    }
    return versionOf(response.ETag);
  }

  async upload(key: string, path: string): Promise<{ etag: string }> {
    assertValidKey(key);
    const { size } = await stat(path);
    if (size > MAX_SINGLE_PUT_BYTES) {
      throw new Error(
        `Expected a file of at most 5 GiB for one PutObject, got ${size} bytes in ${path}; split the dataset into several files`,
      );
    }
    const result = await this.client
      .send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          // The length lets the SDK sign and send the stream without buffering it.
          Body: createReadStream(path),
          ContentLength: size,
          ContentType: contentTypeOf(key),
        }),
      )
      .catch((error: unknown) => {
        throw this.explained(error, key, 'write');
      });
    if (result.ETag === undefined) throw new Error(`PutObject of ${key} returned no ETag`);
    // S3 quotes ETags in headers; S3 events, and the other stores, give them bare.
    return { etag: result.ETag.replaceAll('"', '') };
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async *list(prefix: string): AsyncIterable<string> {
    let continuationToken: string | undefined;
    do {
      const page = await this.client
        .send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: prefix,
            ContinuationToken: continuationToken,
            MaxKeys: this.pageSize,
          }),
        )
        .catch((error: unknown) => {
          throw this.explained(error, prefix, 'list');
        });
      for (const object of page.Contents ?? []) {
        if (object.Key !== undefined) yield object.Key;
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken !== undefined);
  }

  /** A refusal named with its key and the permission it needs; any other error as it came. */
  private explained(error: unknown, keyOrPrefix: string, access: S3Access): unknown {
    return accessDeniedError(error, this.bucket, keyOrPrefix, access) ?? awsEndpointFaultOf(error, this.endpoint) ?? error;
  }
}

/** An ETag as the object's version, without S3's quotes; a service that gives none (none does for a stored object) makes every read a new version. */
function versionOf(etag: string | undefined): string {
  return etag === undefined ? `no-etag-${randomUUID()}` : etag.replaceAll('"', '');
}

/** S3's limit on one PutObject; larger objects need a multipart upload. */
const MAX_SINGLE_PUT_BYTES = 5 * 1024 ** 3;

interface ServiceErrorShape {
  readonly name?: unknown;
  readonly $metadata?: { readonly httpStatusCode?: unknown; readonly attempts?: unknown };
}

/** How many times the SDK sent the request that failed (its retries included); 1 when it does not say. */
function attemptsOf(error: unknown): number {
  const attempts = ((typeof error === 'object' && error !== null ? error : {}) as ServiceErrorShape).$metadata?.attempts;
  return typeof attempts === 'number' ? attempts : 1;
}

function statusOf(error: unknown): { name: unknown; status: unknown } {
  const shape = (typeof error === 'object' && error !== null ? error : {}) as ServiceErrorShape;
  return { name: shape.name, status: shape.$metadata?.httpStatusCode };
}

/**
 * NoSuchKey, or a bare 404 (S3 answers HEAD-like errors without a body); a
 * missing bucket is a configuration error and throws. A 403 is never "absent"
 * (s3-access-denied.ts): S3 answers a missing key with 404 only to a caller
 * that may list the bucket, which the stack grants every function that reads.
 */
function isMissingObject(error: unknown): boolean {
  const { name, status } = statusOf(error);
  return name === 'NoSuchKey' || (status === 404 && name !== 'NoSuchBucket');
}

/**
 * 412 PreconditionFailed: an object already had the key. 409
 * ConditionalRequestConflict: another conditional write to the key was in
 * flight and won. Other 409s (OperationAborted) wrote nothing and throw.
 */
function isLostConditionalWrite(error: unknown): boolean {
  const { name, status } = statusOf(error);
  return status === 412 || name === 'PreconditionFailed' || name === 'ConditionalRequestConflict';
}

const CONTENT_TYPES: Record<string, string> = {
  json: 'application/json',
  jsonl: 'application/x-ndjson',
  csv: 'text/csv',
  md: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

/** So a report opened from the console or a presigned URL renders instead of downloading. */
function contentTypeOf(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}
