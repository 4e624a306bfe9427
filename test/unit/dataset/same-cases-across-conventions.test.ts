import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { requestIdFor } from '../../../shared/rows/content-ids.js';
import { engineOutput, loadAll, textChunk, textDocument } from './factories.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/datasets/', import.meta.url));

// The same support eval set (4 requests, engines bm25 and dense, 3 labelled) written five ways.
const FILES = ['support-databricks.jsonl', 'support-ragas.json', 'support-deepeval.jsonl', 'support-spring-ai.json', 'support-ragas.csv'];

const PASSWORD_CONTEXT = 'To reset your password, open Settings > Security and choose Reset password.';
const LENGTH_CONTEXT = 'Passwords must be at least 12 characters long.';

describe('one eval set in every convention', () => {
  it.each(FILES)('%s loads without errors, counted', async (file) => {
    // Act
    const { errors, counts } = await loadAll(FIXTURES + file);

    // Assess
    expect(errors).toEqual([]);
    expect(counts).toEqual({
      rows: 8,
      cases: 4,
      engines: { bm25: 4, dense: 4 },
      labelled_cases: 3,
      expected_response_cases: 3,
      human_verdict_cases: 0,
      errors: 0,
    });
  });

  it('loads to deep-equal cases from Databricks JSONL, RAGAS JSON, DeepEval JSONL, Spring AI JSON and RAGAS CSV', async () => {
    // Act
    const [reference, ...others] = await Promise.all(FILES.map(async (file) => (await loadAll(FIXTURES + file)).cases));

    // Assess
    for (const cases of others) expect(cases).toEqual(reference);
  });

  it('builds the expected first case: shared tags on the case, differing tags on the engines, one id per text', async () => {
    // Act
    const { cases } = await loadAll(`${FIXTURES}support-ragas.csv`);

    // Assess
    expect(cases[0]).toEqual({
      request_id: requestIdFor('How do I reset my password?'),
      request: 'How do I reset my password?',
      engines: {
        bm25: engineOutput({
          retrieved_context: [textChunk(PASSWORD_CONTEXT, 1), textChunk(LENGTH_CONTEXT, 2)],
          response: 'Open Settings > Security and choose Reset password.',
          tags: { index_version: '2024-05' },
        }),
        dense: engineOutput({
          retrieved_context: [textChunk(LENGTH_CONTEXT, 1), textChunk(PASSWORD_CONTEXT, 2)],
          response: 'Go to Settings, then Security, then Reset password.',
          tags: { index_version: '2024-06' },
        }),
      },
      expected_response: 'Open Settings > Security and choose Reset password.',
      expected_retrieved_context: [textDocument(PASSWORD_CONTEXT)],
      tags: { category: 'account' },
    });
  });

  it('keeps the Chinese query and the CSV field with commas, quotes and a line break intact', async () => {
    // Act
    const { cases } = await loadAll(`${FIXTURES}support-ragas.csv`);

    // Assess
    expect(cases[1]?.request).toBe('如何申请退款？');
    expect(cases[2]?.request).toBe('What does the "Pro" plan cost, per month?');
    expect(cases[2]?.engines.bm25?.response).toBe('The "Pro" plan costs $20, billed monthly.\nAnnual billing saves 15%.');
    expect(cases[3]?.engines.dense?.retrieved_context).toEqual([]);
  });
});
