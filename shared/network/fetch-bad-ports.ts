/**
 * The ports fetch will not connect to. Node's fetch (undici) applies the
 * WHATWG Fetch standard's "bad port" list (https://fetch.spec.whatwg.org/#port-blocking,
 * the table under "A port is a bad port if..."): a request to one of them
 * fails at once with `TypeError: fetch failed`, cause `bad port`, before any
 * connection is tried. Such a failure looks like a network fault but can
 * never pass, so a URL on one of these ports is refused where it comes in
 * (OPENAI_BASE_URL, the config's judge base URLs and Azure endpoint, an http
 * engine's URL) instead of being retried. Only what goes through fetch is
 * checked: the AWS SDK (Bedrock, Lambda, S3, SQS) and the OpenSearch client
 * use node:http, which has no such list.
 *
 * The list below is the standard's as of its 2024 additions (4190, 6679); Node
 * 20.20's fetch refuses exactly these ports of 0-65535 (measured by asking
 * each one on 127.0.0.1).
 */
export const FETCH_BAD_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117,
  119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636,
  989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** What to do instead, for messages and config fixes. */
export const BAD_PORT_FIX = 'run the server on another port, such as 8000, and give that one';

/** The port `url` names when fetch refuses it; undefined for any other port, for no port (the scheme's own, 80 or 443), or for text that is no URL. */
export function fetchRefusedPort(url: string): number | undefined {
  const parsed = URL.parse(url);
  if (parsed === null || parsed.port === '') return undefined;
  const port = Number(parsed.port);
  return FETCH_BAD_PORTS.has(port) ? port : undefined;
}

/** Why a URL on `port` cannot be used, as the rest of a sentence that names the URL. */
export function badPortProblem(port: number): string {
  return `uses port ${port}, which fetch refuses to connect to (one of the WHATWG Fetch standard's "bad ports"), so no request could reach the server`;
}

/**
 * The port fetch refused, when `error` is fetch's refusal of a bad port
 * (`TypeError: fetch failed` caused by `Error: bad port`); undefined for any
 * other error. `url` is the URL that was asked, whose port is the refused one.
 */
export function refusedPortOf(error: unknown, url: string): number | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  if (!(cause instanceof Error) || cause.message !== 'bad port') return undefined;
  return fetchRefusedPort(url);
}
