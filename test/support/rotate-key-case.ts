import { caseMessageSchema, type CaseMessage } from '../../shared/schema/pipeline-messages.js';

/**
 * A case message of run `runId`: case q1, one engine (bm25) and its three
 * passages, as the worker tests deliver it; `fields` adds the message's own
 * (`deferrals`, ...).
 */
export function rotateKeyCaseMessage(runId: string, fields: Record<string, unknown> = {}): CaseMessage {
  return caseMessageSchema.parse({
    ...fields,
    kind: 'case',
    run_id: runId,
    case_id: 'q1',
    case: {
      request_id: 'q1',
      request: 'how do I rotate a key?',
      tags: {},
      engines: {
        bm25: {
          tags: {},
          retrieved_context: ['one', 'two', 'three'].map((text, rank) => ({
            doc_uri: `d${rank}`,
            rank: rank + 1,
            content: `passage ${text}`,
          })),
        },
      },
    },
  });
}
