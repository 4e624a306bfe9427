import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3Client } from '@aws-sdk/client-s3';
import { S3Store } from '../../shared/ports/s3-store.js';

/**
 * A loopback S3 endpoint (path style, `/<bucket>/<key>`; PutObject, GetObject,
 * HeadObject, DeleteObject and one-page ListObjectsV2) that keeps objects in memory and honours `If-None-Match: *` on PutObject as S3 does: a key that
 * exists gets 412 PreconditionFailed. fauxqs ignores the header, so it cannot
 * show what a conditional write meets on a real bucket.
 *
 * `loseAnswer` picks the writes whose answer is lost after S3 stored the
 * object: the connection is cut before any byte of the answer, as a
 * connection reset or a gateway timeout after the write committed does. The
 * SDK then sends the write again, and S3 refuses it with 412, since the first
 * attempt made the key exist. `failBeforeStoring` picks writes answered 500
 * before anything is stored, which the SDK sends again too.
 */
export interface ConditionalS3Server {
  /** http://127.0.0.1:PORT, for an S3Client with forcePathStyle. */
  readonly endpoint: string;
  /** Every request in the order it came: method and key, with `If-None-Match` when sent. */
  requests(): readonly S3Request[];
  /** The object's bytes as stored, for a test to write one first as another writer would. */
  objects: Map<string, Buffer>;
  close(): Promise<void>;
}

export interface S3Request {
  readonly method: string;
  readonly key: string;
  readonly ifNoneMatch: boolean;
}

export interface ConditionalS3Options {
  /** The PutObject requests whose answer is lost once the object is stored; none when absent. */
  readonly loseAnswer?: (request: S3Request, index: number) => boolean;
  /** The PutObject requests refused with 500 InternalError before anything is stored, as S3 asks for a retry; none when absent. */
  readonly failBeforeStoring?: (request: S3Request, index: number) => boolean;
}

export async function startConditionalS3Server(options: ConditionalS3Options = {}): Promise<ConditionalS3Server> {
  const objects = new Map<string, Buffer>();
  const seen: S3Request[] = [];

  function answer(incoming: IncomingMessage, response: ServerResponse, body: Buffer): void {
    const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
    const key = decodeURIComponent(url.pathname.split('/').slice(2).join('/'));
    const request = { method: incoming.method ?? 'GET', key, ifNoneMatch: incoming.headers['if-none-match'] === '*' };
    seen.push(request);
    const stored = objects.get(key);
    if (request.method === 'PUT') {
      if (options.failBeforeStoring?.(request, seen.length - 1) === true)
        return void error(response, 500, 'InternalError', 'We encountered an internal error. Please try again.');
      if (request.ifNoneMatch && stored !== undefined)
        return void error(response, 412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
      objects.set(key, body);
      if (options.loseAnswer?.(request, seen.length - 1) === true) return void incoming.socket.destroy();
      response.writeHead(200, { etag: etagOf(body), 'content-length': '0' }).end();
      return;
    }
    if (request.method === 'DELETE') {
      objects.delete(key);
      return void response.writeHead(204).end();
    }
    if (request.method === 'GET' && key === '' && url.searchParams.get('list-type') === '2')
      return void listing(response, url.searchParams.get('prefix') ?? '');
    if (stored === undefined) {
      if (request.method === 'HEAD') return void response.writeHead(404, { 'content-length': '0' }).end();
      return void error(response, 404, 'NoSuchKey', 'The specified key does not exist.');
    }
    response.writeHead(200, { etag: etagOf(stored), 'content-length': String(stored.length), 'content-type': 'application/octet-stream' });
    response.end(request.method === 'HEAD' ? undefined : stored);
  }

  /** ListObjectsV2 of a prefix, all in one page, in S3's order (UTF-8 bytes: these keys are ASCII). */
  function listing(response: ServerResponse, prefix: string): void {
    const keys = [...objects.keys()].filter((key) => key.startsWith(prefix)).sort();
    const contents = keys
      .map(
        (key) =>
          `<Contents><Key>${key}</Key><ETag>${etagOf(objects.get(key) ?? Buffer.alloc(0))}</ETag><Size>${objects.get(key)?.length ?? 0}</Size></Contents>`,
      )
      .join('');
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult><Name>bucket</Name><Prefix>${prefix}</Prefix><KeyCount>${keys.length}</KeyCount><IsTruncated>false</IsTruncated>${contents}</ListBucketResult>`;
    response.writeHead(200, { 'content-type': 'application/xml', 'content-length': String(Buffer.byteLength(body)) }).end(body);
  }

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => answer(incoming, response, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests: () => seen,
    objects,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((closed) => (closed === undefined ? resolve() : reject(closed)));
      }),
  };
}

/** `picks`, but only for the first request it picks: one answer lost, and its retry answered. */
export function firstOnly(picks: (request: S3Request) => boolean): (request: S3Request) => boolean {
  let picked = false;
  return (request) => {
    if (picked || !picks(request)) return false;
    picked = true;
    return true;
  };
}

/** The project's S3 store over the server, through the SDK's client with its default retries. */
export function storeOver(server: ConditionalS3Server): S3Store {
  const client = new S3Client({
    endpoint: server.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    forcePathStyle: true,
  });
  return new S3Store(client, 'assay-bucket');
}

/** S3's ETag of a single-part object: the MD5 of its bytes, quoted. */
function etagOf(body: Buffer): string {
  return `"${createHash('md5').update(body).digest('hex')}"`;
}

function error(response: ServerResponse, status: number, code: string, message: string): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>TEST-REQUEST</RequestId></Error>`;
  response.writeHead(status, {
    'content-type': 'application/xml',
    'x-amz-request-id': 'TEST-REQUEST',
    'content-length': String(Buffer.byteLength(body)),
  });
  response.end(body);
}
