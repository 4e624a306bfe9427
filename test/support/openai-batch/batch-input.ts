/**
 * The validation a batch goes through before it runs: every line of its
 * input file read as OpenAI's request input object
 * (`{custom_id, method: 'POST', url, body}`), in one batch with one model,
 * within the limits of a batch. OpenAI reports a bad line in the batch's
 * `errors.data` with its 1-based line number, and the whole batch fails:
 * no line of it runs. The codes are those OpenAI documents for a failed
 * validation (invalid_json_line, duplicate_custom_id, url_mismatch,
 * model_mismatch, empty_file, too_many_tasks); the others are this server's.
 */
export interface BatchInputLine {
  readonly customId: string;
  /** 1-based, as OpenAI numbers the lines of a file. */
  readonly line: number;
  readonly body: Readonly<Record<string, unknown>>;
}

export interface BatchValidationError {
  readonly code: string;
  readonly message: string;
  readonly param: string | null;
  readonly line: number | null;
}

export interface BatchLimits {
  /** OpenAI's: 50,000 requests a batch. */
  readonly maxRequests: number;
  /** OpenAI's: 200 MB a batch input file. */
  readonly maxBytes: number;
}

export const OPENAI_BATCH_LIMITS: BatchLimits = { maxRequests: 50_000, maxBytes: 200 * 1024 * 1024 };

export type BatchInput =
  | { readonly lines: readonly BatchInputLine[]; readonly model: string | undefined }
  | { readonly errors: readonly BatchValidationError[] };

/**
 * The lines of an input file, or every error found in it. `endpoint` is the
 * batch's, `urls` the line urls that name it (Azure takes `/chat/completions`
 * as well as `/v1/chat/completions`).
 */
export function readBatchInput(bytes: Buffer, endpoint: string, urls: readonly string[], limits: BatchLimits): BatchInput {
  if (bytes.length > limits.maxBytes) {
    const message = `The batch input file is ${bytes.length} bytes, larger than the ${limits.maxBytes} bytes a batch takes. Please try again with a smaller batch.`;
    return { errors: [{ code: 'file_too_large', message, param: null, line: null }] };
  }
  const lines: BatchInputLine[] = [];
  const errors: BatchValidationError[] = [];
  const seen = new Set<string>();
  let model: string | undefined;
  const texts = bytes.toString('utf8').split('\n');
  for (const [index, text] of texts.entries()) {
    // A final newline, or a blank line, is no request; the numbering still counts it as a line.
    if (text.trim() === '') continue;
    const line = index + 1;
    const read = readLine(text, line, endpoint, urls);
    if ('code' in read) {
      errors.push(read);
      continue;
    }
    if (seen.has(read.customId)) {
      const message =
        'The custom_id for this request is a duplicate of another request. The custom_id parameter must be unique for each request in a batch.';
      errors.push({ code: 'duplicate_custom_id', message, param: 'custom_id', line });
      continue;
    }
    seen.add(read.customId);
    const lineModel = typeof read.body.model === 'string' ? read.body.model : undefined;
    model ??= lineModel;
    if (lineModel !== model) {
      const message = `The provided model '${String(lineModel)}' does not match the model '${String(model)}' of the other requests in this batch. A batch takes requests for one model.`;
      errors.push({ code: 'model_mismatch', message, param: 'body.model', line });
      continue;
    }
    lines.push(read);
  }
  if (errors.length > 0) return { errors };
  if (lines.length === 0)
    return {
      errors: [
        {
          code: 'empty_file',
          message: 'The batch input file is empty. Please upload a file with at least one request.',
          param: null,
          line: null,
        },
      ],
    };
  if (lines.length > limits.maxRequests) {
    const message = `The batch input file has ${lines.length} requests, more than the ${limits.maxRequests} a batch takes.`;
    return { errors: [{ code: 'too_many_tasks', message, param: null, line: null }] };
  }
  return { lines, model };
}

function readLine(text: string, line: number, endpoint: string, urls: readonly string[]): BatchInputLine | BatchValidationError {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { code: 'invalid_json_line', message: 'This line is not parseable as valid JSON.', param: null, line };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      code: 'invalid_request',
      message: 'Expected each line to be a JSON object: {custom_id, method, url, body}.',
      param: null,
      line,
    };
  }
  const { custom_id: customId, method, url, body } = value as Record<string, unknown>;
  if (typeof customId !== 'string' || customId === '') return missing('custom_id', line);
  if (method !== 'POST')
    return {
      code: 'invalid_value',
      message: `Invalid value for 'method': expected 'POST', got ${JSON.stringify(method)}.`,
      param: 'method',
      line,
    };
  if (typeof url !== 'string') return missing('url', line);
  if (!urls.includes(url)) {
    return {
      code: 'url_mismatch',
      message: `The URL provided for this request ('${url}') does not match the batch endpoint '${endpoint}'.`,
      param: 'url',
      line,
    };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return missing('body', line);
  return { customId, line, body: body as Record<string, unknown> };
}

function missing(param: string, line: number): BatchValidationError {
  return { code: 'missing_required_parameter', message: `Missing required parameter: '${param}'.`, param, line };
}
