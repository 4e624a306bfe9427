import { describe, expect, it } from 'vitest';
import { configFileSchema } from '../../../shared/config/index.js';
import { NO_JUDGES, runJudgeSummary } from '../../../shared/worker/run-judge-summary.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';

/** The settings a deployed function has: a judge key is configured (its secret's ARN), the server and model from the stack. */
const DEPLOYED = { OPENAI_API_KEY: 'configured', OPENAI_BASE_URL: 'https://api.openai.com/v1', ASSAY_JUDGE_MODEL: 'gpt-4o-mini' };

describe('runJudgeSummary, the judge line ingest writes for deployed workers', () => {
  it.each([
    ['no judges list (the default LLM set)', {}, 'LLM judge gpt-4o-mini at api.openai.com, temperature 0, cached'],
    ['LLM judges', { judges: ['chunk_relevance', 'document_recall'] }, 'LLM judge gpt-4o-mini at api.openai.com, temperature 0, cached'],
    ['judges: []', { judges: [] }, NO_JUDGES],
    [
      'deterministic judges only',
      { judges: ['document_recall'] },
      'no judge calls: deterministic judges only (document_recall), computed from the labels',
    ],
  ])('names what the workers do for a config with %s', (_name, config, summary) => {
    expect(runJudgeSummary(configFileSchema.parse(config), DEPLOYED, new MemoryStore())).toBe(summary);
  });
});
