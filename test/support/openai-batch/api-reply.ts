/**
 * A request to the test batch server's API, below its prefix, and its
 * reply: what routes, faults and the HTTP side pass between them.
 */
export interface Reply {
  readonly status: number;
  /** JSON, or the raw bytes of a file's content. */
  readonly body: object | Buffer;
  readonly headers?: Readonly<Record<string, string>>;
  /** Destroy the connection instead of answering (an httpFaults cut); status is then 0. */
  readonly cut?: boolean;
  /** Never answer, the connection left open until the server closes (an httpFaults hang); status is then 0. */
  readonly hang?: boolean;
  /** Do the route's work first, then destroy the connection instead of its answer (an httpFaults cutAfterWork). */
  readonly cutAfterWork?: boolean;
}

export interface ApiRequest {
  readonly method: string;
  /** The path below the prefix, e.g. `/files/file-test1/content`. */
  readonly resource: string;
  readonly query: URLSearchParams;
  readonly body: Buffer;
  readonly contentType: string | undefined;
  /** Azure names the endpoint `/chat/completions` as well as `/v1/chat/completions`. */
  readonly azure: boolean;
  /** The key it was sent with (Bearer or api-key), for echoKey. */
  readonly apiKey: string | undefined;
}

export function invalid(status: number, message: string, param: string | null, code: string | null, type = 'invalid_request_error'): Reply {
  return { status, body: { error: { message, type, param, code } } };
}
