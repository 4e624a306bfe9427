import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRunConfig, selectJudges } from '../../shared/config/index.js';
import { chooseJudgeBackend } from '../../shared/scoring/judge-backend.js';
import { judgeCase } from '../../shared/scoring/run-judges.js';
import { MemoryStore } from '../../shared/ports/memory-store.js';
import type { EngineOutput, EvalCase } from '../../shared/schema/eval-case.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer, type ChatRequest, type OpenAiTestServer } from '../support/openai-test-server.js';

/**
 * Judges with settings of their own, model variants, ensembles, repeated
 * judging and per-chunk custom retrieval judges, run by judgeCase with the
 * backend a run builds from its config, against the test server. The server
 * answers as the catalog oracle, except for two models: `strict` finds no
 * chunk relevant and `lenient` or `generous` every chunk (grade 3).
 */
const ROTATE = 'Rotate access keys in the IAM console: create a second key, rotate clients to it, then rotate the old one out.';
const BILLING = 'Billing alarms notify you when charges exceed a threshold.';
const chunk = (text: string, rank: number) => ({ doc_uri: text === ROTATE ? 'iam' : 'billing', content: text, rank });
const engine = (...texts: string[]): EngineOutput => ({
  retrieved_context: texts.map((text, index) => chunk(text, index + 1)),
  response: 'Create a new key, then retire the old one.',
  tags: {},
});

const evalCase: EvalCase = {
  request_id: 'q1',
  request: 'How do I rotate an access key without downtime?',
  engines: { bm25: engine(BILLING, ROTATE), dense: engine(ROTATE, BILLING) },
  tags: {},
};

function modelOracle(request: ChatRequest, callIndex: number) {
  const schema = (request.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name;
  if (request.model === 'strict') return { json: { rationale: 'strict', rating: 'no' } };
  if (request.model === 'lenient') return { json: { rationale: 'lenient', rating: 'yes' } };
  if (request.model === 'generous') return { json: { rationale: 'generous', rating: 3 } };
  if (request.model === 'tree-model') return { json: { rationale: 'it answers', verdict: 'yes' } };
  // A sampled safety judge that changes its mind: yes, no, yes, ...
  if (schema === 'safety' && (request.temperature ?? 0) > 0)
    return { json: { rationale: `draw ${callIndex}`, rating: callIndex % 2 === 0 ? 'yes' : 'no' } };
  return catalogOracle(request, callIndex);
}

let server: OpenAiTestServer;
beforeEach(async () => {
  server = await startOpenAiTestServer({ oracle: modelOracle });
});
afterEach(async () => {
  await server.close();
});

async function judge(input: Record<string, unknown>, store = new MemoryStore(), judgedCase = evalCase) {
  const load = parseRunConfig(input, 'assay.yaml');
  if (!load.ok) throw new Error(load.error);
  const { backend } = chooseJudgeBackend(
    load.value,
    { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' },
    store,
  );
  return judgeCase(judgedCase, { judges: selectJudges(load.value), backend });
}

const CHUNKS = 'retrieval/llm_judged';

describe('judges with settings of their own', () => {
  it('asks a model variant its own model, under the judge schema name, and reports it under the variant id', async () => {
    // Act
    const result = await judge({
      judges: ['chunk_relevance', 'chunk_relevance@strict'],
      judge_settings: { chunk_relevance: { temperature: 0.3, max_tokens: 200 } },
    });

    // Assess: the plain judge finds 1 of 2 chunks relevant, the strict model none
    expect(result.engines.bm25?.[`${CHUNKS}/chunk_relevance/precision`]).toBe(0.5);
    expect(result.engines.bm25?.[`${CHUNKS}/chunk_relevance@strict/precision`]).toBe(0);
    const requests = server.log.map((entry) => entry.request);
    const strict = requests.filter((request) => request.model === 'strict');
    expect(strict).toHaveLength(2);
    expect(strict.map((request) => (request.response_format as { json_schema: { name: string } }).json_schema.name)).toEqual([
      'chunk_relevance',
      'chunk_relevance',
    ]);
    // The variant inherits the judge's settings; only its model differs
    expect(requests.map((request) => [request.temperature, request.max_tokens ?? request.max_completion_tokens])).toEqual(
      Array(4).fill([0.3, 200]),
    );
    expect(Object.keys(result.usage).sort()).toEqual(['chunk_relevance', 'chunk_relevance@strict']);
  });

  it('asks every node of a decision tree the model the tree sets for itself, and other judges the run model', async () => {
    // Act
    const result = await judge({
      judges: ['answers_it', 'safety'],
      dag_judges: [
        {
          id: 'answers_it',
          assessment: 'ANSWER',
          model: 'tree-model',
          root: 'asks',
          nodes: {
            asks: { binary: 'Does the response answer the request?', inputs: ['request', 'response'], yes: 'good', no: 'bad' },
            good: { verdict: 1 },
            bad: { verdict: 0 },
          },
        },
      ],
    });

    // Assess: both engines give the same response, so each judgment is asked once
    expect(result.engines.bm25?.['response/llm_judged/answers_it/rating']).toBe(1);
    const modelOf = (name: string) =>
      server.log
        .filter((entry) => (entry.request.response_format as { json_schema: { name: string } }).json_schema.name === name)
        .map((entry) => entry.request.model);
    expect(modelOf('answers_it')).toEqual(['tree-model']);
    expect(modelOf('safety')).toEqual(['judge-model']);
  });
});

describe('ensembles', () => {
  it('takes the majority of yes/no chunk verdicts, with the share of members agreeing, asking each member once', async () => {
    // Act
    const result = await judge({
      judges: ['relevance_panel'],
      ensembles: [
        { id: 'relevance_panel', members: ['chunk_relevance', 'chunk_relevance@strict', 'chunk_relevance@lenient'], combine: 'majority' },
      ],
    });

    // Assess: rotate chunk yes/no/yes -> yes (2 of 3); billing no/no/yes -> no (2 of 3); bm25 ranks billing first
    expect(result.engines.bm25).toMatchObject({
      [`${CHUNKS}/relevance_panel/ratings`]: ['no', 'yes'],
      [`${CHUNKS}/relevance_panel/precision`]: 0.5,
      [`${CHUNKS}/relevance_panel/average_precision`]: 0.5,
      [`${CHUNKS}/relevance_panel/agreements`]: [2 / 3, 2 / 3],
      [`${CHUNKS}/relevance_panel/agreement`]: 2 / 3,
      [`${CHUNKS}/relevance_panel/error_message`]: null,
      [`${CHUNKS}/chunk_relevance@lenient/precision`]: 1,
      [`${CHUNKS}/chunk_relevance@strict/precision`]: 0,
    });
    // 3 members x 2 distinct chunks, shared by both engines and by the ensemble
    expect(server.log).toHaveLength(6);
  });

  it('averages grades per chunk and reports their spread, with the NDCG of the mean grades', async () => {
    // Act
    const result = await judge({
      judges: ['graded_panel'],
      ensembles: [{ id: 'graded_panel', members: ['graded_relevance', 'graded_relevance@generous'], combine: 'mean' }],
    });

    // Assess: rotate 3 and 3 -> 3, spread 0; billing 0 and 3 -> 1.5, spread 1 (on the 0-1 value scale)
    // bm25 [1.5, 3]: DCG = 1.5 / log2(2) + 3 / log2(3) = 3.39279; ideal [3, 1.5] = 3 + 1.5 / log2(3) = 3.94640; NDCG 0.85972
    const bm25 = result.engines.bm25 ?? {};
    expect(bm25[`${CHUNKS}/graded_panel/ratings`]).toEqual([1.5, 3]);
    expect(bm25[`${CHUNKS}/graded_panel/spreads`]).toEqual([1, 0]);
    expect(bm25[`${CHUNKS}/graded_panel/spread`]).toBe(0.5);
    expect(bm25[`${CHUNKS}/graded_panel/ndcg@5`]).toBeCloseTo((1.5 + 3 / Math.log2(3)) / (3 + 1.5 / Math.log2(3)), 12);
    expect(result.engines.dense?.[`${CHUNKS}/graded_panel/ndcg@5`]).toBe(1);
  });
});

describe('repeated judging', () => {
  const safetyCase: EvalCase = { ...evalCase, engines: { bm25: engine(ROTATE) } };
  const config = { judges: ['safety'], judge: { cache_sampled: true }, judge_settings: { safety: { temperature: 0.7, repeat: 3 } } };

  it('draws each sample at the judge temperature and reports their mean, their spread and each sample, each sample cached apart', async () => {
    // Prepare
    const store = new MemoryStore();

    // Act
    const first = await judge(config, store, safetyCase);
    const callsAfterFirst = server.log.length;
    const second = await judge(config, store, safetyCase);

    // Assess: the samples say yes, no, yes in some order -> mean 2/3, spread 1 - 0
    const metrics = first.engines.bm25 ?? {};
    expect(metrics['response/llm_judged/safety/rating']).toBeCloseTo(2 / 3, 12);
    expect(metrics['response/llm_judged/safety/spread']).toBe(1);
    expect([1, 2, 3].map((sample) => metrics[`response/llm_judged/safety/sample_${sample}/rating`]).sort()).toEqual(['no', 'yes', 'yes']);
    expect(callsAfterFirst).toBe(3);
    expect(server.log.every((entry) => entry.request.temperature === 0.7)).toBe(true);
    expect(server.log.length).toBe(callsAfterFirst);
    expect(second.engines).toEqual(first.engines);
  });
});

describe('custom retrieval judges', () => {
  it('judge each distinct chunk once and report per-chunk ratings and precision', async () => {
    // Act
    const result = await judge({
      judges: ['mentions_rotation'],
      custom_judges: [
        {
          id: 'mentions_rotation',
          assessment: 'RETRIEVAL',
          scale: 'yes_no',
          template: 'Does this passage help with "{request}"?\n\n{chunk}',
        },
      ],
    });

    // Assess: the oracle says yes where the prompt mentions rotating more than once
    expect(result.engines.dense).toMatchObject({
      [`${CHUNKS}/mentions_rotation/ratings`]: ['yes', 'no'],
      [`${CHUNKS}/mentions_rotation/precision`]: 0.5,
    });
    expect(result.engines.bm25?.[`${CHUNKS}/mentions_rotation/ratings`]).toEqual(['no', 'yes']);
    expect(server.log).toHaveLength(2);
  });
});
