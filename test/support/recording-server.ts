import { createServer, type IncomingHttpHeaders } from 'node:http';
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
 * managed API replaying a recorded answer.
 */
export async function startRecordingServer(answer: (request: RecordedRequest, index: number) => ScriptedAnswer): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: RecordedRequest = { method: incoming.method ?? '', url: incoming.url ?? '', headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(request);
      const scripted = answer(request, requests.length - 1);
      const send = () => {
        if (outgoing.destroyed) return;
        const text = typeof scripted.body === 'string' ? scripted.body : scripted.body === undefined ? '' : JSON.stringify(scripted.body);
        outgoing.writeHead(scripted.status ?? 200, { 'content-type': typeof scripted.body === 'string' ? 'text/plain' : 'application/json', ...scripted.headers });
        outgoing.end(text);
      };
      if (scripted.delayMs === undefined) send();
      else setTimeout(send, scripted.delayMs).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
