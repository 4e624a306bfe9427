import { describe, expect, it } from 'vitest';
import { recordFailure } from '../../../shared/worker/record-failure.js';
import { runKeys } from '../../../shared/run/run-identity.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { caseFailureSchema, type CaseFailure } from '../../../shared/schema/run-records.js';
import type { CaseMessage, ClaimCheckedCaseMessage } from '../../../shared/schema/pipeline-messages.js';

function caseMessage(overrides: Partial<ClaimCheckedCaseMessage> = {}): ClaimCheckedCaseMessage {
  return { kind: 'case', run_id: 'r-0123456789abcdef', case_id: 'q01', case_key: 'runs/r-0123456789abcdef/cases/q01.json', ...overrides };
}

async function storedFailure(store: MemoryStore, message: CaseMessage): Promise<CaseFailure> {
  const bytes = await store.get(runKeys.failure(message.run_id, message.case_id));
  return caseFailureSchema.parse(JSON.parse(new TextDecoder().decode(bytes)));
}

describe('recordFailure', () => {
  it('writes the last error without anything shaped like a credential', async () => {
    // Prepare: a last error that carries a key the worker did not know to remove
    const store = new MemoryStore();
    const message = caseMessage();
    const error = 'judge server answered 502: upstream said Authorization: Bearer sk-live-Zx81Qw72Er63 is invalid';
    await store.put(runKeys.lastError(message.run_id, message.case_id), JSON.stringify({ error, receive_count: 3 }));

    // Act
    const outcome = await recordFailure(store, JSON.stringify(message), 3);

    // Assess
    expect(outcome).toEqual({ kind: 'recorded', runId: message.run_id, caseId: message.case_id });
    const failure = await storedFailure(store, message);
    expect(failure.error).toBe('judge server answered 502: upstream said Authorization: Bearer [redacted] is invalid');
    expect(JSON.stringify(failure)).not.toContain('Zx81Qw72Er63');
  });
});
