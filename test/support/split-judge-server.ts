import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One judge server on loopback as a provider is one: its batch API and its
 * chat completions at one base URL. It relays chat completion requests
 * (online judgments: a batch run's fallbacks) to `online` and everything
 * else (files, batches) to `batch`, each a test server of its own, so a test
 * counts the online calls and the batch lines apart.
 */
export interface SplitJudgeServer {
  /** http://127.0.0.1:PORT/v1 */
  readonly baseUrl: string;
  close(): Promise<void>;
}

export async function startSplitJudgeServer(targets: { online: string; batch: string }): Promise<SplitJudgeServer> {
  const online = new URL(targets.online);
  const batch = new URL(targets.batch);

  function relay(incoming: IncomingMessage, response: ServerResponse): void {
    const target = /\/chat\/completions(\?|$)/.test(incoming.url ?? '') ? online : batch;
    const outgoing = forward(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    // A target that drops the connection drops the client's too, as the provider would.
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
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
