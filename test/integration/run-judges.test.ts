import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JUDGE_CATALOG, findJudge } from '../../shared/judges/catalog/index.js';
import { canonicalBaseUrl, JudgeCache } from '../../shared/judge-client/judge-cache.js';
import { JudgeClient } from '../../shared/judge-client/judge-client.js';
import type { JudgeDefinition } from '../../shared/judges/judge-definition.js';
import { JudgeService } from '../../shared/scoring/judge-service.js';
import { judgeCase, type JudgeBackend } from '../../shared/scoring/run-judges.js';
import { MemoryStore } from '../../shared/ports/memory-store.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import type { EngineOutput, EvalCase } from '../../shared/schema/eval-case.js';
import { TEST_CLIENT_SETTINGS } from '../support/judge-clients.js';
import { catalogOracle as oracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer, type FaultPlan, type OpenAiTestServer } from '../support/openai-test-server.js';

const ROTATE = 'Rotate access keys in the IAM console: create a second key, rotate clients to it, then rotate the old one out.';
const BILLING = 'Billing alarms notify you when charges exceed a threshold.';
const chunk = (text: string, rank: number, documentUri = `doc-${rank}`) => ({ doc_uri: documentUri, content: text, rank });
const engine = (
  chunks: EngineOutput['retrieved_context'],
  response = 'Create a new key, switch clients, then deactivate the old key.',
): EngineOutput => ({
  retrieved_context: chunks,
  response,
  tags: {},
});

const evalCase: EvalCase = {
  request_id: 'q1',
  request: 'How do I rotate an access key without downtime?',
  engines: {
    bm25: engine([chunk(BILLING, 1, 'billing'), chunk(ROTATE, 2, 'iam')]),
    dense: engine([chunk(ROTATE, 1, 'iam'), chunk(BILLING, 2, 'billing')]),
  },
  expected_response: 'Create a second key, move clients to it, then deactivate and delete the old key.',
  expected_retrieved_context: [{ doc_uri: 'iam', grade: 2 }],
  tags: {},
};

let server: OpenAiTestServer;
beforeEach(async () => {
  server = await startOpenAiTestServer({ oracle });
});
afterEach(async () => {
  await server.close();
});

function llmBackend(store: ObjectStore | undefined, faults?: FaultPlan): JudgeBackend {
  if (faults) server.setFaults(faults);
  const client = new JudgeClient({ ...TEST_CLIENT_SETTINGS, baseUrl: server.baseUrl, apiKey: 'key', timeoutMs: 5_000, maxRetries: 8 });
  const service = new JudgeService(client, new JudgeCache(store), {
    provider: 'openai',
    baseUrl: canonicalBaseUrl(server.baseUrl),
    model: 'judge-model',
    temperature: 0,
    cacheSampled: false,
    concurrency: 8,
  });
  return { kind: 'llm', service };
}

const judges = (...ids: string[]): JudgeDefinition[] => ids.map((id) => findJudge(id) as JudgeDefinition);

describe('judgeCase with LLM judges', () => {
  it('derives precision and average precision from chunk verdicts in rank order', async () => {
    const result = await judgeCase(evalCase, { judges: judges('chunk_relevance'), backend: llmBackend(undefined) });
    // bm25: [no, yes] -> precision 1/2, AP = (1/2) / 1; dense: [yes, no] -> precision 1/2, AP = 1
    expect(result.engines.bm25).toMatchObject({
      'retrieval/llm_judged/chunk_relevance/ratings': ['no', 'yes'],
      'retrieval/llm_judged/chunk_relevance/precision': 0.5,
      'retrieval/llm_judged/chunk_relevance/average_precision': 0.5,
      'retrieval/llm_judged/chunk_relevance/error_message': null,
    });
    expect(result.engines.dense).toMatchObject({
      'retrieval/llm_judged/chunk_relevance/ratings': ['yes', 'no'],
      'retrieval/llm_judged/chunk_relevance/average_precision': 1,
    });
  });

  it('derives NDCG@k from graded verdicts, the ideal being the same grades sorted', async () => {
    const result = await judgeCase(evalCase, { judges: judges('graded_relevance'), backend: llmBackend(undefined), ndcgCutoffs: [1, 2] });
    // The prompt holds the request (one "rotate") and the passage: BILLING -> 1 mention -> grade 0,
    // ROTATE -> 4 mentions -> grade 3. bm25 grades [0, 3]: DCG@2 = 3 / log2(3); the ideal [3, 0]
    // gives IDCG@2 = 3, so NDCG@2 = 1 / log2(3) = 0.6309 and NDCG@1 = 0. dense [3, 0] is ideal: 1.
    expect(result.engines.bm25?.['retrieval/llm_judged/graded_relevance/ratings']).toEqual([0, 3]);
    expect(result.engines.bm25?.['retrieval/llm_judged/graded_relevance/ndcg@1']).toBe(0);
    expect(result.engines.bm25?.['retrieval/llm_judged/graded_relevance/ndcg@2']).toBeCloseTo(1 / Math.log2(3), 12);
    expect(result.engines.dense?.['retrieval/llm_judged/graded_relevance/ndcg@2']).toBe(1);
  });

  it('yields rating, rationale and error_message for every response and case judge, and skips none with inputs present', async () => {
    // Act
    const result = await judgeCase(evalCase, { judges: JUDGE_CATALOG, backend: llmBackend(undefined) });

    // Assess
    const metrics = result.engines.dense ?? {};
    for (const judge of JUDGE_CATALOG.filter((definition) => definition.kind === 'llm' && definition.assessment !== 'chunk')) {
      const prefix = `${judge.scope}/llm_judged/${judge.id}`;
      expect(metrics, judge.id).toHaveProperty(`${prefix}/rating`);
      expect(metrics[`${prefix}/rating`], judge.id).not.toBeNull();
      expect(metrics[`${prefix}/rationale`], judge.id).toEqual(expect.any(String));
      expect(metrics[`${prefix}/error_message`], judge.id).toBeNull();
    }
    expect(metrics).toMatchObject({
      'retrieval/llm_judged/context_recall/rating': 0.5,
      'response/llm_judged/answer_faithfulness/rating': 0.75,
      'response/llm_judged/answer_faithfulness/rationale': 'mostly supported',
      'response/llm_judged/answer_faithfulness/passing': 1,
      'response/llm_judged/answer_relevancy/rating': 0.9,
      'response/llm_judged/faithfulness/rating': 0.75,
      'response/llm_judged/correctness_score/rating': 0.8,
      // rubric: (0.6 * 3 + 0.2 * 2 + 0.2 * 3) = 2.8 on 0-3
      'response/llm_judged/rubric/correctness': 3,
      'response/llm_judged/rubric/comprehensiveness': 2,
      'retrieval/ground_truth/document_recall': 1,
    });
    expect(metrics['response/llm_judged/rubric/rating']).toBeCloseTo(2.8, 12);
    expect(result.skipped).toEqual([]);
    expect(result.transient).toBe(false);
  });

  it('skips a judge whose input the case lacks, and says why', async () => {
    const unlabelled: EvalCase = { ...evalCase, expected_response: undefined, expected_retrieved_context: undefined };
    const result = await judgeCase(unlabelled, { judges: judges('correctness', 'document_recall'), backend: llmBackend(undefined) });
    expect(result.skipped).toContainEqual({ judge: 'correctness', engine: 'bm25', reason: 'the case has no expected_response' });
    expect(result.skipped).toContainEqual({
      judge: 'document_recall',
      engine: 'dense',
      reason: 'the case has no expected_retrieved_context',
    });
    expect(result.engines.bm25).toEqual({});
  });

  it('judges a chunk that five engines retrieved once', async () => {
    // Prepare: five engines, the same passage in each, no cache
    const fiveEngines: EvalCase = {
      ...evalCase,
      engines: Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((name) => [name, engine([chunk(ROTATE, 1)])])),
    };

    // Act
    const result = await judgeCase(fiveEngines, { judges: judges('chunk_relevance'), backend: llmBackend(undefined) });

    // Assess
    expect(server.answered()).toBe(1);
    expect(Object.values(result.engines).map((metrics) => metrics['retrieval/llm_judged/chunk_relevance/precision'])).toEqual([
      1, 1, 1, 1, 1,
    ]);
  });

  it('makes no judge call when the same case is judged again over the same cache', async () => {
    const store = new MemoryStore();
    const first = await judgeCase(evalCase, { judges: JUDGE_CATALOG, backend: llmBackend(store) });
    const callsAfterFirst = server.log.length;
    const second = await judgeCase(evalCase, { judges: JUDGE_CATALOG, backend: llmBackend(store) });
    expect(server.log.length).toBe(callsAfterFirst);
    expect(second.engines).toEqual(first.engines);
    expect(Object.values(second.usage).every((usage) => usage.calls === 0 && usage.cache_hits > 0)).toBe(true);
    expect(first.usage.chunk_relevance).toMatchObject({ calls: 2, cache_hits: 0, errors: 0 });
  });

  it('gives the same results with 20% rate limits and 5% server errors as a clean run', async () => {
    const clean = await judgeCase(evalCase, { judges: JUDGE_CATALOG, backend: llmBackend(undefined) });
    const faulty = await judgeCase(evalCase, {
      judges: JUDGE_CATALOG,
      backend: llmBackend(undefined, { rateLimit: 0.2, serverError: 0.05, seed: 11, retryAfterMs: 1 }),
    });
    const outcomes = server.log.map((entry) => entry.outcome);
    expect(outcomes.filter((outcome) => outcome === '429').length).toBeGreaterThan(0);
    expect(outcomes.filter((outcome) => outcome === '500').length).toBeGreaterThan(0);
    expect(faulty.engines).toEqual(clean.engines);
    expect(faulty.skipped).toEqual(clean.skipped);
    expect(Object.values(faulty.usage).reduce((sum, usage) => sum + usage.retries, 0)).toBeGreaterThan(0);
  });

  it('finishes with error_message values when the judge always answers garbage', async () => {
    // Act
    const result = await judgeCase(evalCase, { judges: JUDGE_CATALOG, backend: llmBackend(undefined, { garbage: 1 }) });

    // Assess: every LLM metric is an error, no rating is invented, nothing throws
    const metrics = result.engines.bm25 ?? {};
    expect(metrics['response/llm_judged/correctness/rating']).toBeNull();
    expect(metrics['response/llm_judged/correctness/error_message']).toMatch(/^invalid answer after one repair request/);
    expect(metrics['retrieval/llm_judged/chunk_relevance/ratings']).toEqual([null, null]);
    expect(metrics['retrieval/llm_judged/chunk_relevance/error_message']).toMatch(/^2 of 2 chunks could not be judged/);
    expect(metrics).not.toHaveProperty('retrieval/llm_judged/chunk_relevance/precision');
    expect(metrics['retrieval/ground_truth/document_recall']).toBe(1);
    expect(Object.values(metrics).some((value) => typeof value === 'number' && Number.isNaN(value))).toBe(false);
    expect(result.transient).toBe(false);
  });

  it('stops its judgments at the deadline it is given, as a transient failure that sends the case back', async () => {
    // Prepare: a judge slower than the time the caller has left
    const backend = llmBackend(undefined, { slow: 1, slowMs: 2_000 });
    const startedAt = Date.now();

    // Act
    const result = await judgeCase(evalCase, { judges: judges('correctness'), backend, deadlineAt: Date.now() + 200 });

    // Assess
    expect(result.transient).toBe(true);
    expect(result.engines.bm25?.['response/llm_judged/correctness/error_message']).toMatch(/^the judgment ran out of time/);
    expect(Date.now() - startedAt).toBeLessThan(1_500);
  });
});

describe('judgeCase with the lexical backend', () => {
  it('labels its metrics lexical and says which judges need an LLM', async () => {
    const result = await judgeCase(evalCase, {
      judges: judges('chunk_relevance', 'groundedness', 'correctness'),
      backend: { kind: 'lexical' },
    });
    expect(Object.keys(result.engines.dense ?? {}).every((name) => name.includes('/lexical/'))).toBe(true);
    expect(result.engines.dense?.['retrieval/lexical/chunk_relevance/ratings']).toEqual(['yes', 'no']);
    expect(String(result.engines.dense?.['response/lexical/groundedness/rationale'])).toMatch(/^Non-LLM lexical approximation:/);
    expect(result.skipped).toContainEqual({ judge: 'correctness', engine: 'dense', reason: expect.stringMatching(/needs an LLM judge/) });
    expect(server.log.length).toBe(0);
  });
});
