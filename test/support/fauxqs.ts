import { afterAll, beforeAll } from 'vitest';
import { createAwsClients, type AwsClients } from '../../shared/ports/aws-clients.js';
import { buildApp } from 'fauxqs';

/**
 * A fauxqs S3 + SQS emulator on a free loopback port, for integration tests.
 * Each call gets its own empty emulator. fauxqs 1.9.2 accepts S3 event
 * notification settings but never delivers them, and ignores PutObject's
 * If-None-Match: tests that need either must not run them against it.
 */
export interface Fauxqs {
  /** `http://127.0.0.1:<port>`, for `createAwsClients({ endpoint })`. */
  readonly endpoint: string;
  close(): Promise<void>;
}

export async function startFauxqs(): Promise<Fauxqs> {
  const app = buildApp({ logger: false });
  // Never 0.0.0.0: the emulator accepts any credentials.
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') {
    await app.close();
    throw new Error(`Expected fauxqs to listen on a TCP port, got ${String(address)}`);
  }
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    // The app force-closes kept-alive connections and stops its long-poll timers on close.
    close: () => app.close(),
  };
}

/**
 * Starts one fauxqs for the enclosing test file (beforeAll) with AWS clients
 * pointed at it, and stops both afterwards (afterAll). Call it at the top of
 * the file; read the live values through the returned object inside tests.
 */
export function useFauxqsClients(): { readonly fauxqs: Fauxqs; readonly clients: AwsClients } {
  const state: { fauxqs?: Fauxqs; clients?: AwsClients } = {};
  beforeAll(async () => {
    state.fauxqs = await startFauxqs();
    state.clients = createAwsClients({ endpoint: state.fauxqs.endpoint });
  });
  afterAll(async () => {
    state.clients?.s3.destroy();
    state.clients?.sqs.destroy();
    await state.fauxqs?.close();
  });
  return {
    get fauxqs() {
      if (state.fauxqs === undefined) throw new Error('fauxqs is started in beforeAll: read it inside a test');
      return state.fauxqs;
    },
    get clients() {
      if (state.clients === undefined) throw new Error('the clients are made in beforeAll: read them inside a test');
      return state.clients;
    },
  };
}
