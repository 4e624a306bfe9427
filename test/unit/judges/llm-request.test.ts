import { describe, expect, it } from 'vitest';
import { configFileSchema } from '../../../shared/config/index.js';
import { llmRequestOf, type LlmRequest } from '../../../shared/config/llm-request.js';
import type { JudgeEnvironment } from '../../../shared/judge-client/judge-provider.js';

/** A custom judge, which only an LLM runs. */
const CUSTOM_JUDGE = {
  id: 'mentions_rotation',
  description: 'Does the passage explain how to rotate a key?',
  assessment: 'RETRIEVAL',
  scale: 'yes_no',
  template: 'Does this passage explain how to do what "{request}" asks?\n\n{chunk}',
};

describe('what asks for an LLM judge', () => {
  it.each<[string, Record<string, unknown>, JudgeEnvironment, LlmRequest | undefined]>([
    ['nothing: the quick start', {}, {}, undefined],
    ['settings of how calls are made only', { judge: { temperature: 0.2, concurrency: 4, timeout_ms: 5000 } }, {}, undefined],
    ['judges the lexical judge approximates', { judges: ['groundedness', 'chunk_relevance', 'document_recall'] }, {}, undefined],
    ['batch judging turned off', { judge: { batch: false } }, {}, undefined],
    ['a blank environment variable', {}, { ASSAY_JUDGE_MODEL: ' ' }, undefined],
    ['a custom judge the list leaves out', { custom_judges: [CUSTOM_JUDGE] }, {}, undefined],
    ['batch judging', { judge: { batch: true } }, {}, { kind: 'setting', setting: 'judge.batch' }],
    ['the provider', { judge: { provider: 'openai' } }, {}, { kind: 'setting', setting: 'judge.provider' }],
    ['the server', { judge: { base_url: 'http://127.0.0.1:11434/v1' } }, {}, { kind: 'setting', setting: 'judge.base_url' }],
    [
      "a single judge's server",
      { judge_settings: { safety: { base_url: 'http://127.0.0.1:11434/v1' } } },
      {},
      { kind: 'setting', setting: 'judge_settings.safety.base_url' },
    ],
    ['a judge only an LLM runs, listed', { judges: ['document_recall', 'correctness'] }, {}, { kind: 'judge', judge: 'correctness' }],
    ['a model variant', { judges: ['groundedness@small-model'] }, {}, { kind: 'judge', judge: 'groundedness@small-model' }],
    [
      'a custom judge, listed',
      { judges: ['mentions_rotation'], custom_judges: [CUSTOM_JUDGE] },
      {},
      { kind: 'judge', judge: 'mentions_rotation' },
    ],
    [
      'an ensemble, which runs without a list',
      { ensembles: [{ id: 'panel', members: ['groundedness', 'correctness'], combine: 'majority' }] },
      {},
      { kind: 'judge', judge: 'panel' },
    ],
    ['the environment', {}, { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }, { kind: 'environment', variable: 'OPENAI_BASE_URL' }],
  ])('%s', (_described, config, environment, request) => {
    expect(llmRequestOf(configFileSchema.parse(config), environment)).toEqual(request);
  });
});
