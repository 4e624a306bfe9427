import { describe, expect, it } from 'vitest';
import {
  isLexicalJudge,
  LEXICAL_JUDGE_IDS,
  lexicalVerdict,
  relevanceGrade,
  type LexicalInputs,
  type LexicalJudgeId,
} from '../../../../shared/judges/lexical/lexical-judge.js';
import { expectVerdict, filler, terms } from './factories.js';

const PREFIX = 'Non-LLM lexical approximation:';

describe('lexicalVerdict on worked examples', () => {
  // request terms: choose, similarity, metric, vector, database (how, do, I, a, for are stop words)
  const request = 'How do I choose a similarity metric for vector databases?';
  // passage terms include vector, database, similarity (twice), metric; not choose: 4 of 5
  const chunk = 'Most vector databases support cosine similarity, dot product and Euclidean distance as the similarity metric.';

  it('finds an English passage relevant', () => {
    // Act
    const verdict = expectVerdict(lexicalVerdict('chunk_relevance', { request, chunk }));

    // Assess: 4 of 5 terms at full credit (11 words < 100) = 0.8 ≥ 0.5
    expect(verdict).toEqual({
      rating: 'yes',
      value: 1,
      rationale: `${PREFIX} 4 of 5 request terms found in the passage; weighted coverage 0.80 ≥ 0.5, so relevant.`,
      details: { coverage: 0.8, request_terms: 5, found_terms: 4, passage_length: 11 },
    });
  });

  it('grades the same English passage 3', () => {
    // Act
    const verdict = expectVerdict(lexicalVerdict('graded_relevance', { request, chunk }));

    // Assess: 0.8 reaches the last bound; value 3 / 3
    expect(verdict.rating).toBe(3);
    expect(verdict.value).toBe(1);
    expect(verdict.rationale).toBe(
      `${PREFIX} 4 of 5 request terms found in the passage; weighted coverage 0.80 is at least 0.8, so grade 3 (strong).`,
    );
  });

  // request bigrams (13): 向量 量数 数据 据库 库如 如何 何选 选择 择相 相似 似度 度度 度量
  const chineseRequest = '向量数据库如何选择相似度度量';
  // holds 向量 量数 数据 据库 选择 相似 似度 度度 度量; not 库如 如何 何选 择相: 9 of 13
  const chinesePassage = '向量数据库通常用余弦相似度、内积或欧氏距离作为相似度度量；选择时要看向量是否已经归一化。';

  it('finds a Chinese passage relevant through shared bigrams', () => {
    // Act
    const verdict = expectVerdict(lexicalVerdict('graded_relevance', { request: chineseRequest, chunk: chinesePassage }));

    // Assess: 9 / 13 = 0.6923 in [0.5, 0.8): grade 2, value 2 / 3;
    // 38 bigrams at half a word each = 19 words, well under the average
    expect(verdict).toEqual({
      rating: 2,
      value: 2 / 3,
      rationale: `${PREFIX} 9 of 13 request terms found in the passage; weighted coverage 0.69 is in [0.5, 0.8), so grade 2 (medium).`,
      details: { coverage: 9 / 13, request_terms: 13, found_terms: 9, passage_length: 19 },
    });
  });

  it('finds an unrelated Chinese passage irrelevant', () => {
    // Act
    const verdict = expectVerdict(lexicalVerdict('chunk_relevance', { request: chineseRequest, chunk: '今天天气很好，我们去公园散步。' }));

    // Assess
    expect(verdict.rating).toBe('no');
    expect(verdict.details?.coverage).toBe(0);
  });

  it('judges a Chinese answer grounded in the context', () => {
    // Prepare: response bigrams (11) 向量 量数 数据 据库 库使 使用 用余 余弦 弦相 相似 似度;
    // the context lacks 库使 and 使用: 9 of 11
    const inputs: LexicalInputs = { request: chineseRequest, response: '向量数据库使用余弦相似度', context: [chinesePassage] };

    // Act
    const verdict = expectVerdict(lexicalVerdict('groundedness', inputs));

    // Assess: 9 / 11 = 0.818 ≥ 0.8
    expect(verdict).toEqual({
      rating: 'yes',
      value: 1,
      rationale: `${PREFIX} 9 of 11 response content words occur in the context; share 0.82 ≥ 0.8, so grounded.`,
      details: { grounded_share: 9 / 11, response_tokens: 11, grounded_tokens: 9 },
    });
  });

  it('judges an English answer against the request', () => {
    // Prepare: response terms cosine, similarity, usual, choice, normalised, vector; request terms as above
    const inputs: LexicalInputs = { request, response: 'Cosine similarity is the usual choice for normalised vectors.' };

    // Act
    const verdict = expectVerdict(lexicalVerdict('relevance_to_query', inputs));

    // Assess: similarity and vector, 2 of 5 = 0.4 ≥ 0.4
    expect(verdict.rating).toBe('yes');
    expect(verdict.rationale).toBe(
      `${PREFIX} 2 of 5 request terms found in the response; weighted coverage 0.40 ≥ 0.4, so the response addresses the request.`,
    );
  });

  it('matches plurals with singulars and ignores stop words', () => {
    // Prepare: request terms query, index; the passage's "queries" and "indexes" strip to the same
    const inputs = { request: 'What is a query index?', chunk: 'Indexes make queries fast.' };

    // Act
    const verdict = expectVerdict(lexicalVerdict('chunk_relevance', inputs));

    // Assess
    expect(verdict.details).toMatchObject({ request_terms: 2, found_terms: 2, coverage: 1 });
  });

  it('says when a long passage discounts single mentions', () => {
    // Prepare: all 3 terms once in a passage of 403 words
    const inputs = { request: 'vector database metric', chunk: `vector database metric ${filler(400)}` };

    // Act
    const verdict = expectVerdict(lexicalVerdict('chunk_relevance', inputs));

    // Assess: K = 1.2 · (0.25 + 0.75 · 4.03) = 3.927; credit 2.2 / 4.927 = 0.4465 each
    expect(verdict.rating).toBe('no');
    expect(verdict.rationale).toBe(
      `${PREFIX} 3 of 3 request terms found in the passage (403 words long, so single mentions count partly); weighted coverage 0.45 < 0.5, so not relevant.`,
    );
  });
});

describe('lexicalVerdict at the thresholds', () => {
  // 100 distinct request terms; the passage holds the first `found` of them and
  // is at most 100 words long, so each found term counts in full: coverage = found / 100
  const withFound = (found: number): LexicalInputs => ({ request: terms(100), chunk: terms(found), response: terms(found) });

  it.each<[number, 'yes' | 'no']>([
    [49, 'no'],
    [50, 'yes'],
  ])('chunk_relevance with %i of 100 terms is %s', (found, rating) => {
    expect(expectVerdict(lexicalVerdict('chunk_relevance', withFound(found))).rating).toBe(rating);
  });

  it.each<[number, number]>([
    [0, 0],
    [19, 0],
    [20, 1],
    [49, 1],
    [50, 2],
    [79, 2],
    [80, 3],
    [100, 3],
  ])('graded_relevance with %i of 100 terms is grade %i', (found, grade) => {
    const verdict = expectVerdict(lexicalVerdict('graded_relevance', withFound(found)));

    expect(verdict.rating).toBe(grade);
    expect(verdict.value).toBe(grade / 3);
  });

  it.each<[number, 'yes' | 'no']>([
    [39, 'no'],
    [40, 'yes'],
  ])('relevance_to_query with %i of 100 terms is %s', (found, rating) => {
    expect(expectVerdict(lexicalVerdict('relevance_to_query', withFound(found))).rating).toBe(rating);
  });

  it.each<[number, 'yes' | 'no']>([
    [79, 'no'],
    [80, 'yes'],
  ])('groundedness with %i of 100 response words in the context is %s', (grounded, rating) => {
    // Prepare: terms 0-99 in the response, terms 0..grounded-1 in the context
    const inputs = { request: '', response: terms(100), context: [terms(grounded)] };

    // Act
    const verdict = expectVerdict(lexicalVerdict('groundedness', inputs));

    // Assess
    expect(verdict.rating).toBe(rating);
    expect(verdict.details?.grounded_share).toBe(grounded / 100);
  });

  it.each<[number, number]>([
    [0.2 - 1e-12, 0],
    [0.2, 1],
    [0.5 - 1e-12, 1],
    [0.5, 2],
    [0.8 - 1e-12, 2],
    [0.8, 3],
  ])('relevanceGrade(%f) is %i', (coverage, grade) => {
    expect(relevanceGrade(coverage)).toBe(grade);
  });
});

describe('lexicalVerdict on empty and missing inputs', () => {
  it.each<[LexicalJudgeId, LexicalInputs, string]>([
    ['chunk_relevance', { request: 'vector' }, 'lexical chunk_relevance needs a request and a chunk'],
    ['graded_relevance', { request: 'vector' }, 'lexical graded_relevance needs a request and a chunk'],
    ['relevance_to_query', { request: 'vector', chunk: 'vector' }, 'lexical relevance_to_query needs a request and a response'],
    ['groundedness', { request: 'vector', context: ['vector'] }, 'lexical groundedness needs a response and a context'],
    ['groundedness', { request: 'vector', response: 'vector' }, 'lexical groundedness needs a response and a context'],
  ])('%s without its inputs is an error', (judgeId, inputs, error) => {
    expect(lexicalVerdict(judgeId, inputs)).toEqual({ ok: false, error });
  });

  it.each<[LexicalJudgeId, LexicalInputs, string]>([
    ['chunk_relevance', { request: '', chunk: 'vector database' }, 'the request has no content words once stop words are removed'],
    ['graded_relevance', { request: 'what is it?', chunk: 'what is it?' }, 'the request has no content words once stop words are removed'],
    ['chunk_relevance', { request: 'vector', chunk: '' }, '0 of 1 request terms found in the passage'],
    ['relevance_to_query', { request: 'vector', response: '' }, '0 of 1 request terms found in the response'],
    ['groundedness', { request: '', response: '', context: ['vector'] }, 'the response has no content words to check'],
    [
      'groundedness',
      { request: '', response: 'vector', context: [] },
      '0 of 1 response content words occur in the context (the context is empty)',
    ],
    ['groundedness', { request: '', response: 'vector', context: [''] }, '0 of 1 response content words occur in the context'],
  ])('%s on %j is 0 and says why', (judgeId, inputs, reason) => {
    // Act
    const verdict = expectVerdict(lexicalVerdict(judgeId, inputs));

    // Assess
    expect(verdict.rating).toBe(judgeId === 'graded_relevance' ? 0 : 'no');
    expect(verdict.value).toBe(0);
    expect(verdict.rationale).toContain(`${PREFIX} ${reason}`);
  });
});

describe('isLexicalJudge', () => {
  it.each(LEXICAL_JUDGE_IDS)('knows %s', (judgeId) => {
    expect(isLexicalJudge(judgeId)).toBe(true);
  });

  it.each(['faithfulness', 'correctness', '', 'Chunk_Relevance'])('does not know "%s"', (judgeId) => {
    expect(isLexicalJudge(judgeId)).toBe(false);
  });
});
