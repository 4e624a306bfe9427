import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * Loopback servers that never give an HTTP answer, as real ones fail a
 * client: one that reads every request and stays silent (another service on
 * the port, a hung proxy), and one that hangs up on every request (a
 * TLS-only server asked over plain HTTP). Each counts the requests it got.
 */
export interface MisbehavingServer {
  /** e.g. `http://127.0.0.1:PORT` */
  readonly origin: string;
  requests(): number;
  /** Stops it, ending the connections it holds open. */
  close(): Promise<void>;
}

export function startSilentServer(): Promise<MisbehavingServer> {
  let requests = 0;
  const server = createHttpServer(() => {
    requests += 1;
  });
  return listening(
    server,
    () => requests,
    () => server.closeAllConnections(),
  );
}

export function startHangingUpServer(): Promise<MisbehavingServer> {
  let requests = 0;
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.once('data', () => {
      requests += 1;
      socket.destroy();
    });
  });
  return listening(
    server,
    () => requests,
    () => {
      for (const socket of sockets) socket.destroy();
    },
  );
}

async function listening(server: Server, requests: () => number, endConnections: () => void): Promise<MisbehavingServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    async close() {
      endConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
