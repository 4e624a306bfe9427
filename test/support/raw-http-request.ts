import { connect } from 'node:net';

export interface RawAnswer {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * A request written byte for byte on a socket, as an attacker or an old
 * client sends it: a path no client would leave as it is (`/a/../b`,
 * backslashes), any Host header or none. `lines` are the request line and
 * headers; `Connection: close` is added, and the answer is read to the end.
 */
export function rawRequest(baseUrl: string, lines: readonly string[]): Promise<RawAnswer> {
  const { hostname, port: written } = new URL(baseUrl);
  // The URL parser drops a port that is the scheme's default.
  const port = written === '' ? '80' : written;
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...headerLines] = text.slice(0, split === -1 ? text.length : split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({
        status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0),
        headers,
        body: split === -1 ? '' : text.slice(split + 4),
      });
    });
    socket.write(`${[...lines, 'Connection: close'].join('\r\n')}\r\n\r\n`);
  });
}

/** `GET path HTTP/1.1` with the Host header given (none when undefined). */
export function rawGet(baseUrl: string, path: string, host: string | undefined): Promise<RawAnswer> {
  return rawRequest(baseUrl, [`GET ${path} HTTP/1.1`, ...(host === undefined ? [] : [`Host: ${host}`])]);
}
