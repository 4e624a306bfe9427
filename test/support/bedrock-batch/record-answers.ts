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
  /** recordIds (or the first n records of a job, in input order) answered with an error line of errorRecordCode, without asking the oracle. */
  readonly errorRecords?: readonly string[] | number;
  /** The errorCode of errorRecords' lines: 400 (a ValidationException, the default), 500 (an internal error) or another. */
  readonly errorRecordCode?: number;
  /** The access key id of the job's create (from its SigV4 credential) is written verbatim into every error line's message, the job's message, and the 429 and 500 answers of throttleGets and serverErrorGets. */
  readonly echoKey?: boolean;
}

export interface InputRecord {
  readonly recordId: string;
  readonly modelInput: ConverseBody;
}

export type RecordOutcome =
  | { readonly modelOutput: object }
  | { readonly error: { readonly errorCode: number; readonly errorMessage: string } };

const TOOL_REFUSAL = "This model doesn't support the toolConfig.toolChoice.tool field. Remove toolConfig.toolChoice.tool and try again.";
const THROTTLED = 'Too many requests, please wait before trying again.';
const RECORD_ERRORS: Readonly<Record<number, string>> = {
  400: 'Malformed input request: the record was refused by the model (ValidationException).',
  500: 'The model encountered an internal error while processing the record (InternalServerException).',
};

/** The message as the plan has the server write it: with the caller's access key under echoKey. */
export function withKey(message: string, accessKeyId: string | undefined, faults: Pick<RecordFaults, 'echoKey'>): string {
  return faults.echoKey === true && accessKeyId !== undefined ? `${message} (access key: ${accessKeyId})` : message;
}

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

  /** `position` is the record's index in its job's input, for a count of errorRecords. */
  answer(record: InputRecord, position: number, modelId: string, faults: RecordFaults, accessKeyId: string | undefined): RecordOutcome {
    this.answered += 1;
    const failed = (errorCode: number, message: string): RecordOutcome => ({
      error: { errorCode, errorMessage: withKey(message, accessKeyId, faults) },
    });
    if (faults.throttledRecords?.includes(record.recordId)) return failed(429, THROTTLED);
    const errorRecords = faults.errorRecords ?? [];
    if (typeof errorRecords === 'number' ? position < errorRecords : errorRecords.includes(record.recordId)) {
      const code = faults.errorRecordCode ?? 400;
      return failed(code, RECORD_ERRORS[code] ?? `The record failed with error code ${code}.`);
    }
    if (faults.refuseToolChoice === true && record.modelInput.toolConfig?.toolChoice?.tool !== undefined) return failed(400, TOOL_REFUSAL);
    const request = chatRequestOf(modelId, record.modelInput);
    this.judged.set(record.recordId, (this.judged.get(record.recordId) ?? 0) + 1);
    try {
      return { modelOutput: converseResponse(request, this.oracle(request, this.oracleCalls++), this.answered) };
    } catch (error) {
      const message = `The test oracle threw: ${error instanceof Error ? error.message : String(error)}`;
      this.oracleErrors.push(message);
      return failed(500, message);
    }
  }
}
