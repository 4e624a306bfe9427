import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for an S3 endpoint that refuses: every request gets the
 * error its answer function gives, as S3 sends it (an XML `<Error>` body, or
 * no body at all, as S3 answers a HEAD). It shows how the real SDK client
 * deserialises S3's 403 and 404 answers, which fauxqs never gives (it has no
 * permissions). Path-style requests only: `/<bucket>/<key>`.
 */
export interface S3ErrorAnswer {
  readonly status: number;
  /** S3's error code (`AccessDenied`, `NoSuchKey`); absent: a response without a body. */
  readonly code?: string;
  readonly message?: string;
}

export interface S3RequestSeen {
  readonly method: string;
  /** The key, decoded; '' for a request on the bucket itself (a listing). */
  readonly key: string;
  readonly query: URLSearchParams;
}

export interface S3ErrorServer {
  /** http://127.0.0.1:PORT, for `createAwsClients({ endpoint })`. */
  readonly endpoint: string;
  close(): Promise<void>;
}

export async function startS3ErrorServer(answer: (request: S3RequestSeen) => S3ErrorAnswer): Promise<S3ErrorServer> {
  const server = createServer((request, response) => {
    // Drain any body (a PutObject's) before answering, as S3 reads the request first.
    request.resume();
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const [, , ...keyParts] = url.pathname.split('/');
      const { status, code, message } = answer({
        method: request.method ?? 'GET',
        key: decodeURIComponent(keyParts.join('/')),
        query: url.searchParams,
      });
      if (code === undefined) {
        response.writeHead(status, { 'x-amz-request-id': 'TEST-REQUEST' }).end();
        return;
      }
      const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message ?? ''}</Message><RequestId>TEST-REQUEST</RequestId></Error>`;
      response.writeHead(status, { 'content-type': 'application/xml', 'x-amz-request-id': 'TEST-REQUEST' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
