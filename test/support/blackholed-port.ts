import { connect, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';

/**
 * A loopback port whose connections never open, as behind a firewall that
 * drops the packets: a listener in a worker thread whose event loop is
 * blocked, so it accepts nothing, with its accept queue filled by two
 * connections of its own. Linux then drops every further connection's
 * packets, and the connecting side keeps trying, for about two minutes, as
 * it would against a dropped port. No firewall rule, no root, no network
 * beyond 127.0.0.1.
 */
export interface BlackholedPort {
  readonly port: number;
  close(): Promise<void>;
}

/** With a backlog of 1, Linux queues two connections and drops the packets of the next. */
const BACKLOG = 1;
const QUEUED = BACKLOG + 1;

const LISTENER = `
const { parentPort, workerData } = require('node:worker_threads');
const { createServer } = require('node:net');
const signal = workerData;
const server = createServer();
server.listen({ port: 0, host: '127.0.0.1', backlog: ${BACKLOG} }, () => {
  parentPort.postMessage(server.address().port);
  // Blocked here until told to end: the loop never runs, so nothing is accepted.
  Atomics.wait(signal, 0, 0);
  server.close();
});
`;

export async function startBlackholedPort(): Promise<BlackholedPort> {
  // Set to 1 to end the listener.
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(LISTENER, { eval: true, workerData: signal });
  const port = await new Promise<number>((resolve, reject) => worker.once('message', resolve).once('error', reject));
  const queued: Socket[] = [];
  for (let index = 0; index < QUEUED; index++) {
    const socket = connect(port, '127.0.0.1');
    queued.push(socket);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  }
  return {
    port,
    async close() {
      for (const socket of queued) socket.destroy();
      Atomics.store(signal, 0, 1);
      Atomics.notify(signal, 0);
      await worker.terminate();
    },
  };
}
