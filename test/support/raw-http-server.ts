import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server that hands each request (its body read) to
 * `handle` with the raw response, for the faults a scripted answer cannot
 * give: an answer streamed without end, a connection cut mid-body, a
 * Content-Length that lies.
 */
export interface RawHttpServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  /** How many requests arrived. */
  requests(): number;
  close(): Promise<void>;
}

export async function startRawHttpServer(
  handle: (request: IncomingMessage, response: ServerResponse, index: number) => void,
): Promise<RawHttpServer> {
  let count = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.once('end', () => {
      const index = count;
      count += 1;
      handle(request, response, index);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Writes `chunk` again and again, honouring backpressure, until `total`
 * bytes were handed over or the client went away; resolves with the bytes
 * handed over and whether the answer was cut short by the client.
 */
export async function streamUntilClosed(
  response: ServerResponse,
  chunk: string,
  total: number,
): Promise<{ written: number; closedEarly: boolean }> {
  const closed = once(response, 'close');
  let written = 0;
  while (written < total && !response.destroyed) {
    written += Buffer.byteLength(chunk);
    if (!response.write(chunk)) await Promise.race([once(response, 'drain'), closed]);
  }
  if (!response.destroyed) response.end();
  await closed;
  return { written, closedEarly: written < total || !response.writableFinished };
}
