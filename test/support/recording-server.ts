import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse, type Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';

/** One request as the server received it. */
export interface RecordedRequest {
  readonly method: string;
  /** Path and query string, as sent. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** What the server answers: a status, a body (objects are sent as JSON) and extra headers; `delayMs` holds the answer back. */
export interface ScriptedAnswer {
  readonly status?: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  readonly delayMs?: number;
  /** Sends only this start of the body (its Content-Length promising the whole), then cuts the connection. */
  readonly cutAfter?: string;
}

export interface RecordingServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A loopback HTTP server that records every request and answers with what
 * `answer` returns for it: the stand-in for a search service, or for a
 * managed API replaying a recorded answer. With `http2`, it speaks cleartext
 * HTTP/2, as SDK clients whose default handler is HTTP/2 (Bedrock Agent
 * Runtime) expect.
 */
export async function startRecordingServer(
  answer: (request: RecordedRequest, index: number) => ScriptedAnswer,
  options: { http2?: boolean } = {},
): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const handle = (incoming: IncomingMessage | Http2ServerRequest, outgoing: ServerResponse | Http2ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: RecordedRequest = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      const scripted = answer(request, requests.length - 1);
      const send = () => {
        if (outgoing.destroyed || outgoing.writableEnded) return;
        const text = typeof scripted.body === 'string' ? scripted.body : scripted.body === undefined ? '' : JSON.stringify(scripted.body);
        const contentType = { 'content-type': typeof scripted.body === 'string' ? 'text/plain' : 'application/json' };
        if (scripted.cutAfter !== undefined) {
          outgoing.writeHead(scripted.status ?? 200, {
            ...contentType,
            'content-length': String(Buffer.byteLength(text)),
            ...scripted.headers,
          });
          const cut = () => ('stream' in outgoing ? outgoing.stream.session?.destroy() : outgoing.socket?.destroy());
          // One call per response type: TypeScript cannot call the union of their write signatures.
          if ('stream' in outgoing) outgoing.write(scripted.cutAfter, cut);
          else outgoing.write(scripted.cutAfter, cut);
          return;
        }
        outgoing.writeHead(scripted.status ?? 200, { ...contentType, ...scripted.headers });
        outgoing.end(text);
      };
      if (scripted.delayMs === undefined) send();
      else setTimeout(send, scripted.delayMs).unref();
    });
  };
  if (options.http2 === true) {
    const sessions = new Set<Http2Session>();
    const server = createHttp2Server(handle);
    server.on('session', (session) => {
      sessions.add(session);
      session.once('close', () => sessions.delete(session));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const close = () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      });
    return { url: `http://127.0.0.1:${port}`, requests, close };
  }
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url: `http://127.0.0.1:${port}`, requests, close };
}
