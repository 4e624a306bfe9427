/**
 * multipart/form-data (RFC 7578) read from a whole body, for the test batch
 * server's file uploads: written by hand so the server needs nothing beyond
 * node:http. Parts are kept as bytes, since an uploaded JSONL file must come
 * back byte for byte from `GET /files/{id}/content`.
 */
export interface FormPart {
  readonly name: string;
  /** Set for a file part (Content-Disposition's filename). */
  readonly filename: string | undefined;
  readonly contentType: string | undefined;
  readonly data: Buffer;
}

const CRLF = Buffer.from('\r\n');
const HEADERS_END = Buffer.from('\r\n\r\n');

/** The parts of the body, or the wording of why it is not multipart/form-data. */
export function parseMultipartForm(body: Buffer, contentType: string | undefined): FormPart[] | string {
  const boundary = boundaryOf(contentType);
  if (boundary === undefined) return 'Expected a multipart/form-data body with a boundary in its Content-Type';
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: FormPart[] = [];
  let start = body.indexOf(delimiter);
  if (start === -1) return 'Expected the multipart body to start with its boundary';
  for (;;) {
    const afterDelimiter = start + delimiter.length;
    // `--boundary--` closes the body; anything after it is an epilogue, ignored as RFC 2046 says.
    if (body.subarray(afterDelimiter, afterDelimiter + 2).toString('latin1') === '--') return parts;
    const headersStart = afterDelimiter + CRLF.length;
    const headersEnd = body.indexOf(HEADERS_END, headersStart);
    if (headersEnd === -1) return 'Expected the headers of a multipart part to end with an empty line';
    // The data runs to the CRLF that comes before the next delimiter: that CRLF belongs to the delimiter.
    const next = body.indexOf(Buffer.concat([CRLF, delimiter]), headersEnd);
    if (next === -1) return 'Expected a multipart part to end with the boundary';
    const part = partOf(body.subarray(headersStart, headersEnd).toString('utf8'), body.subarray(headersEnd + HEADERS_END.length, next));
    if (typeof part === 'string') return part;
    parts.push(part);
    start = next + CRLF.length;
  }
}

function partOf(headerText: string, data: Buffer): FormPart | string {
  const headers = new Map<string, string>();
  for (const line of headerText.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const disposition = headers.get('content-disposition') ?? '';
  const name = parameterOf(disposition, 'name');
  if (!/^form-data\b/i.test(disposition) || name === undefined)
    return 'Expected every multipart part to have Content-Disposition: form-data with a name';
  return { name, filename: parameterOf(disposition, 'filename'), contentType: headers.get('content-type'), data: Buffer.from(data) };
}

function boundaryOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined || !/^multipart\/form-data\b/i.test(contentType)) return undefined;
  return parameterOf(contentType, 'boundary');
}

/** A `key=value` or `key="value"` parameter of a header; undici and browsers escape `"` in a quoted value as %22. */
function parameterOf(header: string, key: string): string | undefined {
  const match = new RegExp(`(?:^|;)\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]+))`, 'i').exec(header);
  if (match === null) return undefined;
  const quoted = match[1];
  return quoted === undefined ? match[2] : quoted.replace(/\\(.)/g, '$1').replace(/%22/g, '"');
}
