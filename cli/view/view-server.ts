import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import { VIEW_HEADERS, ViewApp } from '../../shared/view/view-app.js';
import { ViewData } from '../../shared/view/view-data.js';

export interface ViewServer {
  /** `http://127.0.0.1:8750/`: where the app is. */
  readonly url: string;
  close(): Promise<void>;
}

export interface ViewServerOptions {
  readonly store: ObjectStore;
  /** How the pages name the store. */
  readonly storeName: string;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Where an unexpected error of a request is told (it is answered with a 500). */
  readonly log: (line: string) => void;
}

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * `assay view`'s HTTP server (node:http): each GET or HEAD goes to the
 * ViewApp. Requests whose Host header names another host than the one
 * listened on (or localhost) are refused, so a web page elsewhere cannot
 * reach the app through a DNS name that resolves to 127.0.0.1; listening on
 * a wildcard address (0.0.0.0) accepts any Host, as that asks for.
 */
export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const scratch = await mkdtemp(join(tmpdir(), 'assay-view-'));
  const app = new ViewApp(new ViewData(options.store, scratch), options.storeName);
  const server = createServer((request, response) => {
    void serve(app, request, response, allowedHosts(server.address(), options.host), options.log);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error(`Expected the view server to listen on a TCP port, got ${String(address)}`);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

/** The Host headers a request may carry: the address listened on and the loopback names, with the port; undefined for any (a wildcard address). */
function allowedHosts(address: AddressInfo | string | null, listenedOn: string): ReadonlySet<string> | undefined {
  if (WILDCARD_HOSTS.has(listenedOn)) return undefined;
  if (address === null || typeof address === 'string') return new Set();
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return new Set([host, 'localhost', '127.0.0.1', '[::1]', listenedOn].map((name) => `${name}:${address.port}`.toLowerCase()));
}

async function serve(app: ViewApp, request: IncomingMessage, response: ServerResponse, allowedHosts: ReadonlySet<string> | undefined, log: (line: string) => void): Promise<void> {
  const method = request.method ?? 'GET';
  const target = request.url ?? '/';
  try {
    const host = request.headers.host?.toLowerCase();
    const answer =
      allowedHosts !== undefined && (host === undefined || !allowedHosts.has(host))
        ? { status: 403, contentType: 'text/plain; charset=utf-8', body: `assay view answers requests for ${[...allowedHosts][0] ?? 'its own address'} only\n` }
        : await app.respond(method, target);
    const body = typeof answer.body === 'string' ? Buffer.from(answer.body, 'utf8') : answer.body;
    response.writeHead(answer.status, {
      ...VIEW_HEADERS,
      'Content-Type': answer.contentType,
      'Content-Length': String(body.byteLength),
      ...(answer.status === 405 ? { Allow: 'GET, HEAD' } : {}),
    });
    response.end(method === 'HEAD' ? undefined : body);
  } catch (error) {
    log(`assay view: ${method} ${target}: ${error instanceof Error ? error.message : String(error)}`);
    if (!response.headersSent) response.writeHead(500, { ...VIEW_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
    response.end('assay view could not answer: the error is on its standard error\n');
  }
}
