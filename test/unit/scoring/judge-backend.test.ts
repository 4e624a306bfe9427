import { describe, expect, it } from 'vitest';
import { parseRunConfig, configFileSchema } from '../../../shared/config/index.js';
import { chooseJudgeBackend, DEFAULT_JUDGE_MODEL } from '../../../shared/scoring/judge-backend.js';
import { chunkRelevance } from '../../../shared/judges/catalog/chunk-relevance.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { startOpenAiTestServer } from '../../support/openai-test-server.js';

const config = (judge: object = {}) => configFileSchema.parse({ judge });

describe('chooseJudgeBackend', () => {
  it('uses the lexical judge, and says so, when no API key is set', () => {
    const choice = chooseJudgeBackend(config(), { OPENAI_API_KEY: '  ' }, new MemoryStore());
    expect(choice.backend.kind).toBe('lexical');
    expect(choice.summary).toMatch(/^lexical judge \(non-LLM approximations\): OPENAI_API_KEY is not set/);
  });

  it('takes the model and server from the environment over the config file, and never shows the key', () => {
    const choice = chooseJudgeBackend(
      config({ base_url: 'http://file-server:8000/v1', model: 'file-model' }),
      { OPENAI_API_KEY: 'sk-secret', OPENAI_BASE_URL: 'http://127.0.0.1:9999/v1', ASSAY_JUDGE_MODEL: 'env-model' },
      new MemoryStore(),
    );
    expect(choice.backend.kind).toBe('llm');
    expect(choice.summary).toBe('LLM judge env-model at 127.0.0.1:9999, temperature 0, cached');
    expect(choice.summary).not.toContain('sk-secret');
  });

  it('falls back to the config file, then to the defaults', () => {
    expect(
      chooseJudgeBackend(config({ base_url: 'http://file-server:8000/v1', model: 'file-model' }), { OPENAI_API_KEY: 'k' }, undefined)
        .summary,
    ).toBe('LLM judge file-model at file-server:8000, temperature 0, cache off');
    expect(chooseJudgeBackend(config(), { OPENAI_API_KEY: 'k' }, undefined).summary).toBe(
      `LLM judge ${DEFAULT_JUDGE_MODEL} at api.openai.com, temperature 0, cache off`,
    );
  });

  it('sends judge.max_tokens from the config file, and 1024 by default', async () => {
    // Prepare
    const server = await startOpenAiTestServer({ oracle: () => ({ json: { rationale: 'r', rating: 'yes' } }) });
    try {
      const inputs = { request: 'q', chunk: 'c' };
      const configured = chooseJudgeBackend(
        config({ max_tokens: 300 }),
        { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.baseUrl },
        undefined,
      ).backend;
      const defaulted = chooseJudgeBackend(config(), { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.baseUrl }, undefined).backend;

      // Act
      for (const backend of [configured, defaulted]) if (backend.kind === 'llm') await backend.service.judge(chunkRelevance, inputs);

      // Assess
      expect(server.log.map((entry) => entry.request.max_tokens)).toEqual([300, 1024]);
    } finally {
      await server.close();
    }
  });

  it.each([
    [{ max_tokens: 8 }, /"judge\.max_tokens".*fix: give a whole number of tokens from 16 up/],
    [{ call_deadline_ms: 0 }, /"judge\.call_deadline_ms".*fix: give a whole number of milliseconds above 0/],
    [{ cache_sampled: 'yes' }, /"judge\.cache_sampled".*fix: give true or false/],
  ])('rejects the judge setting %o with what to write instead', (judge, message) => {
    const checked = parseRunConfig({ judge }, 'assay.yaml');
    expect(checked.ok ? '' : checked.error).toMatch(message);
  });
});
