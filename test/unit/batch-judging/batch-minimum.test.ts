import { describe, expect, it } from 'vitest';
import { splitAtMinimum } from '../../../shared/batch-judging/batch-minimum.js';
import type { WaitingCase } from '../../../shared/batch-judging/waiting-cases.js';
import type { BatchProvider } from '../../../shared/batch-providers/batch-provider.js';
import { batchRequestId, type BatchRequest } from '../../../shared/schema/batch-request.js';

/**
 * A round split at the provider's minimum requests a job: the cases that
 * need a request of a job below it are taken out, again until no job is.
 */
const provider = (minRequests: number, maxRequests = 1000): BatchProvider => ({
  name: 'a provider',
  limits: { minRequests, maxRequests, maxBytes: 1_000_000 },
  line: (request) => JSON.stringify({ id: request.id }),
  find: async () => undefined,
  create: async () => ({ id: 'job' }),
  status: async () => ({ state: 'Completed', phase: 'finished', counts: undefined, errors: [] }),
  answers: async function* () {},
  cancel: async () => {},
});

function request(model: string, text: string): BatchRequest {
  const body = { modelId: model, messages: [{ role: 'user', content: [{ text }] }] };
  return { id: batchRequestId(body, 0, 0), judge: 'chunk_relevance', model, sample: 0, attempt: 0, body };
}

function waiting(caseId: string, requests: BatchRequest[]): WaitingCase {
  return {
    run_id: 'r-0000000000000003',
    case_id: caseId,
    round: 0,
    message: { kind: 'case', run_id: 'r-0000000000000003', case_id: caseId, case_key: `runs/r/cases/${caseId}.json` },
    requests,
  };
}

describe('a round split at the minimum requests a job', () => {
  it('keeps every case when each job reaches the minimum', () => {
    const cases = [waiting('a', [request('m', 'a1'), request('m', 'a2')]), waiting('b', [request('m', 'b1')])];

    const split = splitAtMinimum(cases, new Set(), provider(3), undefined);

    expect(split.below).toEqual([]);
    expect(split.planned.map((job) => job.ids.length)).toEqual([3]);
  });

  it("takes out the cases that need a short job, and shares a case's request with no one it took out", () => {
    // Prepare: model m has 4 requests (a job), model s has 1 (below 2): case c needs both, case d only m's
    const shared = request('m', 'shared');
    const cases = [
      waiting('c', [shared, request('m', 'c1'), request('s', 'c2')]),
      waiting('d', [shared, request('m', 'd1'), request('m', 'd2')]),
    ];

    // Act
    const split = splitAtMinimum(cases, new Set(), provider(2), undefined);

    // Assess: c is out, and the job is made of d's 3 requests
    expect(split.below.map((one) => one.case_id)).toEqual(['c']);
    expect(split.within.map((one) => one.case_id)).toEqual(['d']);
    expect(split.planned.map((job) => [job.model, job.ids.length])).toEqual([['m', 3]]);
    expect(split.shortest).toBe(1);
  });

  it('splits again when taking cases out leaves another job short', () => {
    // Prepare: at least 2 a job: model x's one request takes e out; then model m has only f's one request left, short too
    const cases = [waiting('e', [request('m', 'e1'), request('x', 'e2')]), waiting('f', [request('m', 'f1')])];

    const split = splitAtMinimum(cases, new Set(), provider(2), undefined);

    expect(split.below.map((one) => one.case_id).sort()).toEqual(['e', 'f']);
    expect(split.planned).toEqual([]);
  });

  it('counts no request a job already answered', () => {
    const answeredRequest = request('m', 'g1');
    const cases = [waiting('g', [answeredRequest, request('m', 'g2')])];

    const split = splitAtMinimum(cases, new Set([answeredRequest.id]), provider(2), undefined);

    expect(split.below.map((one) => one.case_id)).toEqual(['g']);
  });
});
