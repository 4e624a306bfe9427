import { describe, expect, it } from 'vitest';
import { caseMessageSchema, parseCaseMessage, type CaseMessage } from '../../../shared/schema/pipeline-messages.js';
import type { EvalCase } from '../../../shared/schema/eval-case.js';

/** In the order of the case's own schema, as ingest writes it. */
const evalCase: EvalCase = {
  request_id: 'q01',
  request: 'how do I rotate keys?',
  engines: { bm25: { retrieved_context: [{ doc_uri: 'kb/rotate', rank: 1 }], tags: {} } },
  tags: {},
};

/** Message bodies as ingest, deferral and batch rounds write them: the wire format a queue or a store may still hold. */
const inline = JSON.stringify({ kind: 'case', run_id: 'r-0123456789abcdef', case_id: 'q01', case: evalCase });
const claimChecked = JSON.stringify({
  kind: 'case',
  run_id: 'r-0123456789abcdef',
  case_id: 'q01',
  case_key: 'runs/r-0123456789abcdef/cases/q01.json',
});
const deferred = JSON.stringify({
  kind: 'case',
  run_id: 'r-0123456789abcdef',
  case_id: 'q01',
  case_key: 'runs/r-0123456789abcdef/cases/q01.json',
  deferrals: 2,
  batch_round: 1,
  skip_judges: 'max_judge_cost',
  judge_online: 'below_minimum',
});

/** Where the case of a message is: the type says which field is present. */
function placeOf(message: CaseMessage): string {
  return message.case !== undefined ? `inline ${message.case.request_id}` : `claim check ${message.case_key}`;
}

describe('the case message', () => {
  it.each([
    ['an inline case', inline, 'inline q01'],
    ['a claim-checked case', claimChecked, 'claim check runs/r-0123456789abcdef/cases/q01.json'],
    ['a deferred case of a batch round', deferred, 'claim check runs/r-0123456789abcdef/cases/q01.json'],
  ])('reads %s as it is on the wire, and writes it back the same', (_described, body, place) => {
    // Act
    const parsed = parseCaseMessage(body);

    // Assess
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(placeOf(parsed.value)).toBe(place);
    expect(JSON.stringify(parsed.value)).toBe(body);
  });

  it('drops fields it does not know, as it always did', () => {
    expect(caseMessageSchema.parse({ ...JSON.parse(claimChecked), trace: 'x' })).toEqual(JSON.parse(claimChecked));
  });

  it.each<[string, string, string]>([
    ['a body that is not JSON', '{"kind": ', 'not valid JSON ('],
    [
      'a message without its run',
      JSON.stringify({ kind: 'case', case_id: 'q01', case_key: 'k' }),
      'not a case message: field "run_id": is missing',
    ],
    [
      'another kind of message',
      JSON.stringify({ kind: 'check', run_id: 'r', case_id: 'q01', case_key: 'k' }),
      'not a case message: field "kind": expected one of case, got "check"',
    ],
    [
      'a message with neither the case nor its key',
      JSON.stringify({ kind: 'case', run_id: 'r', case_id: 'q01' }),
      'not a case message: a case message carries either the case or its case_key, not both or neither',
    ],
    [
      'a message with both',
      JSON.stringify({ ...JSON.parse(inline), case_key: 'k' }),
      'not a case message: a case message carries either the case or its case_key, not both or neither',
    ],
    [
      'an inline case that is not a case',
      JSON.stringify({ ...JSON.parse(inline), case: { ...evalCase, request: 5 } }),
      'not a case message: field "case.request": expected a string, got a number (5)',
    ],
  ])('refuses %s, saying why', (_described, body, error) => {
    const parsed = parseCaseMessage(body);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.error.startsWith(error)).toBe(true);
  });
});
