import { describe, expect, it } from 'vitest';
import { judgesForRun } from '../../../shared/config/index.js';
import { configFileSchema } from '../../../shared/config/index.js';

/** The judges a run gets, the same in `assay run` and in the deployed worker. */
describe('judgesForRun', () => {
  it("with the LLM backend and no judges list runs Databricks' default set", () => {
    const run = judgesForRun(configFileSchema.parse({}), 'llm');
    expect(run.judges.map((judge) => judge.id).sort()).toEqual([
      'chunk_relevance',
      'context_sufficiency',
      'correctness',
      'document_recall',
      'groundedness',
      'relevance_to_query',
      'safety',
    ]);
    expect(run.skippedJudges).toEqual([]);
  });

  it('with the lexical backend and no judges list runs what it can approximate and names the rest', () => {
    const run = judgesForRun(configFileSchema.parse({}), 'lexical');
    expect(run.judges.every((judge) => !run.skippedJudges.includes(judge.id))).toBe(true);
    expect(run.judges.map((judge) => judge.id)).toContain('chunk_relevance');
    expect(run.skippedJudges).toContain('correctness');
  });

  it('runs the listed judges, in the listed order, whatever the backend', () => {
    const config = configFileSchema.parse({ judges: ['safety', 'chunk_relevance'] });
    expect(judgesForRun(config, 'llm').judges.map((judge) => judge.id)).toEqual(['safety', 'chunk_relevance']);
    expect(judgesForRun(config, 'lexical').judges.map((judge) => judge.id)).toEqual(['safety', 'chunk_relevance']);
  });
});
