import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import { exposureWarning, hostCheck, isWildcardAddress, type HostCheck } from '../../shared/view/host-check.js';
import { errorResponse, VIEW_HEADERS, ViewApp, type ViewResponse } from '../../shared/view/view-app.js';
import { ViewData } from '../../shared/view/view-data.js';

export interface ViewServer {
  /** `http://127.0.0.1:8750/`: where the app is (on a wildcard bind, its loopback address). */
  readonly url: string;
  /** What to tell on stderr before serving when it listens beyond loopback (exposureWarning), else undefined. */
  readonly warning: string | undefined;
  close(): Promise<void>;
}

export interface ViewServerOptions {
  readonly store: ObjectStore;
  /** How the pages name the store. */
  readonly storeName: string;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Host names answered besides loopback and the address listened on (`--allow-host`, checked by allowedHostName). */
  readonly allowedHosts?: readonly string[];
  /** Where an unexpected error of a request is told (it is answered with a 500). */
  readonly log: (line: string) => void;
}

/**
 * `assay view`'s HTTP server (node:http): each GET or HEAD goes to the
 * ViewApp, once its Host header is one the server answers (hostCheck:
 * loopback, the address listened on, `--allow-host` names), on every bind.
 * The checks and the pages are in shared/view; this only listens, checks and
 * writes the answer with its headers.
 */
export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const scratch = await mkdtemp(join(tmpdir(), 'assay-view-'));
  const app = new ViewApp(new ViewData(options.store, scratch), options.storeName);
  let check: HostCheck | undefined;
  // A request without a Host header is refused by the Host check like any other (with the view's headers), not by node:http's bare 400.
  const server = createServer({ requireHostHeader: false }, (request, response) => {
    void serve(app, request, response, check, options.log);
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
  if (address === null || typeof address === 'string')
    throw new Error(`Expected the view server to listen on a TCP port, got ${String(address)}`);
  check = hostCheck(address, {
    listenedOn: options.host,
    extra: options.allowedHosts ?? [],
    interfaces: Object.values(networkInterfaces()).flatMap((entries) => entries ?? []),
  });
  // A wildcard address is no address to open: the page is at loopback on this machine.
  const host = isWildcardAddress(address.address)
    ? address.family === 'IPv6'
      ? '[::1]'
      : '127.0.0.1'
    : address.family === 'IPv6'
      ? `[${address.address}]`
      : address.address;
  return {
    url: `http://${host}:${address.port}/`,
    warning: exposureWarning(address, check, options.storeName),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

async function serve(
  app: ViewApp,
  request: IncomingMessage,
  response: ServerResponse,
  check: HostCheck | undefined,
  log: (line: string) => void,
): Promise<void> {
  const method = request.method ?? 'GET';
  const target = request.url ?? '/';
  let answer: ViewResponse;
  try {
    answer =
      check === undefined || !check.allows(request.headers.host)
        ? // Not the allowed names: a page that reached here through DNS rebinding would read them (the machine's addresses).
          errorResponse(
            target,
            403,
            'assay view does not answer requests for this host name; it answers its own address and loopback, and names given with --allow-host NAME',
          )
        : await app.respond(method, target);
  } catch (error) {
    log(`assay view: ${method} ${target}: ${error instanceof Error ? error.message : String(error)}`);
    answer = errorResponse(target, 500, 'assay view could not answer this request; the error is on its standard error');
  }
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body, 'utf8') : answer.body;
  response.writeHead(answer.status, {
    ...VIEW_HEADERS,
    'Content-Security-Policy': answer.policy,
    'Content-Type': answer.contentType,
    'Content-Length': String(body.byteLength),
    ...(answer.status === 405 ? { Allow: 'GET, HEAD' } : {}),
  });
  response.end(method === 'HEAD' ? undefined : body);
}
