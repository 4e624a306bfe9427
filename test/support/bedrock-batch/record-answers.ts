import type { Oracle } from '../chat-completion-answer.js';
import { chatRequestOf, converseResponse, type ConverseBody } from '../bedrock-test-server.js';

/**
 * One record of a running model invocation job answered as the online
 * Bedrock test server would answer the same Converse request (the same
 * reading into a chat request, the same oracle, the same response body), in
 * the shape of a line of the job's output: `modelOutput`, or `error` in its
 * place. It also counts, over every job of the server, how often each
 * recordId was judged, so a test can assert nothing was judged twice.
 */
export interface RecordFaults {
  /** A forced tool is refused, as by a model without forced tool use: the record's error line carries the ValidationException the online server answers. */
  readonly refuseToolChoice?: boolean;
  /** recordIds answered with a throttling error line (429), without asking the oracle. */
  readonly throttledRecords?: readonly string[];
}

export interface InputRecord {
  readonly recordId: string;
  readonly modelInput: ConverseBody;
}

export type RecordOutcome =
  | { readonly modelOutput: object }
  | { readonly error: { readonly errorCode: number; readonly errorMessage: string } };

const TOOL_REFUSAL = "This model doesn't support the toolConfig.toolChoice.tool field. Remove toolConfig.toolChoice.tool and try again.";

export class RecordAnswers {
  /** recordId → how many times the oracle was asked for it, over every job. */
  readonly judged = new Map<string, number>();
  /** Messages of oracles that threw: such a record gets a 500 error line, and the test should fail on it. */
  readonly oracleErrors: string[] = [];
  private oracleCalls = 0;
  private answered = 0;

  constructor(private oracle: Oracle) {}

  setOracle(oracle: Oracle): void {
    this.oracle = oracle;
  }

  answer(record: InputRecord, modelId: string, faults: RecordFaults): RecordOutcome {
    this.answered += 1;
    if (faults.throttledRecords?.includes(record.recordId))
      return { error: { errorCode: 429, errorMessage: 'Too many requests, please wait before trying again.' } };
    if (faults.refuseToolChoice === true && record.modelInput.toolConfig?.toolChoice?.tool !== undefined)
      return { error: { errorCode: 400, errorMessage: TOOL_REFUSAL } };
    const request = chatRequestOf(modelId, record.modelInput);
    this.judged.set(record.recordId, (this.judged.get(record.recordId) ?? 0) + 1);
    try {
      return { modelOutput: converseResponse(request, this.oracle(request, this.oracleCalls++), this.answered) };
    } catch (error) {
      const message = `The test oracle threw: ${error instanceof Error ? error.message : String(error)}`;
      this.oracleErrors.push(message);
      return { error: { errorCode: 500, errorMessage: message } };
    }
  }
}
