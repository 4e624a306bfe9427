import { chatCompletionAnswer, parseChatRequest, refusalOf, type Oracle, type RequestRefusals } from '../chat-completion-answer.js';
import type { BatchInputLine } from './batch-input.js';
import { errorText, type ProviderTextFaults } from './provider-text.js';

/**
 * One line of a running batch answered as the online test server would
 * answer the same request (the same parsing, refusals and completion body),
 * put in the shape of a line of the batch's output or error file. It also
 * counts, across every batch of the server, how often each custom_id was
 * judged, so a test can assert that nothing was judged twice.
 */
export interface LineResponse {
  readonly status_code: number;
  readonly request_id: string;
  readonly body: object;
}

/** `response` when the request was answered (any status), `error` when it never ran (expired, cancelled). */
export interface LineOutcome {
  readonly response: LineResponse | null;
  readonly error: { readonly code: string; readonly message: string } | null;
}

export interface LineFaults extends RequestRefusals, ProviderTextFaults {
  /** custom_ids whose request is answered 500 (a server error inside the batch), without asking the oracle. */
  readonly serverErrorLines?: readonly string[];
  /** custom_ids whose request is answered 401 invalid_api_key (in the error file), without asking the oracle; with echoKey its message holds the key. */
  readonly unauthorizedLines?: readonly string[];
}

const SERVER_ERROR = 'The server had an error while processing your request. Sorry about that!';
const UNAUTHORIZED = 'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.';

export class LineAnswers {
  /** custom_id → how many times the oracle was asked for it, over every batch. */
  readonly judged = new Map<string, number>();
  /** Messages of oracles that threw: such a line is answered 500, and the test should fail on it. */
  readonly oracleErrors: string[] = [];
  /** Each line's body.model, by custom_id, as it ran (on Azure, the deployment's name). */
  readonly models = new Map<string, string>();
  private oracleCalls = 0;
  private requests = 0;

  constructor(private oracle: Oracle) {}

  setOracle(oracle: Oracle): void {
    this.oracle = oracle;
  }

  /** `apiKey` is the key the batch was created with, for the plan's echoKey. */
  answer(line: BatchInputLine, faults: LineFaults, apiKey: string | undefined): LineOutcome {
    this.requests += 1;
    const requestId = `req_test${this.requests}`;
    const failed = (status: number, message: string, type: string, param: string | null, code: string | null): LineOutcome => ({
      response: {
        status_code: status,
        request_id: requestId,
        body: { error: { message: errorText(message, apiKey, faults), type, param, code } },
      },
      error: null,
    });
    if (typeof line.body.model === 'string') this.models.set(line.customId, line.body.model);
    if (faults.serverErrorLines?.includes(line.customId)) return failed(500, SERVER_ERROR, 'server_error', null, null);
    if (faults.unauthorizedLines?.includes(line.customId))
      return failed(401, UNAUTHORIZED, 'invalid_request_error', null, 'invalid_api_key');
    const request = parseChatRequest(line.body);
    if (typeof request === 'string') return failed(400, request, 'invalid_request_error', null, null);
    const refusal = refusalOf(request, faults);
    if (refusal !== undefined) return failed(refusal.status, refusal.message, 'invalid_request_error', refusal.param, refusal.code);
    this.judged.set(line.customId, (this.judged.get(line.customId) ?? 0) + 1);
    try {
      const answer = this.oracle(request, this.oracleCalls++);
      const { status, body } = chatCompletionAnswer(request, answer, this.requests);
      return { response: { status_code: status, request_id: requestId, body }, error: null };
    } catch (error) {
      const message = `The test oracle threw: ${error instanceof Error ? error.message : String(error)}`;
      this.oracleErrors.push(message);
      return failed(500, message, 'server_error', null, 'oracle_error');
    }
  }
}
