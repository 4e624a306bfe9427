import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A proxy on loopback that forwards every request to `target` and cuts every
 * `cutEvery`-th answer in the middle of its body: it writes the answer's
 * status, its headers (with the whole body's length) and half the body, then
 * destroys the client's socket, as a gateway under load does. It counts the
 * requests it forwarded, so a test can compare them with what the client
 * says it sent.
 */
export interface CuttingProxy {
  /** The target's base URL with the proxy's origin, e.g. http://127.0.0.1:PORT/v1. */
  readonly baseUrl: string;
  /** Requests forwarded to the target so far. */
  requests(): number;
  /** Answers cut so far. */
  cuts(): number;
  close(): Promise<void>;
}

export async function startCuttingProxy(options: { target: string; cutEvery: number }): Promise<CuttingProxy> {
  const target = new URL(options.target);
  let requests = 0;
  let cuts = 0;

  function relay(incoming: IncomingMessage, response: ServerResponse): void {
    requests += 1;
    const cut = requests % options.cutEvery === 0;
    const outgoing = forward(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          // The body goes on whole, with its length, instead of in the chunks it came in.
          const { 'transfer-encoding': _chunked, ...headers } = answer.headers;
          response.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': String(body.length) });
          if (!cut) return void response.end(body);
          cuts += 1;
          response.write(body.subarray(0, Math.floor(body.length / 2)), () => response.socket?.destroy());
        });
      },
    );
    outgoing.on('error', () => response.socket?.destroy());
    incoming.pipe(outgoing);
  }

  const server = createServer(relay);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    requests: () => requests,
    cuts: () => cuts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
