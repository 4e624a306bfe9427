import { describe, expect, it } from 'vitest';
import { findJudge } from '../../../shared/judges/catalog/index.js';
import type { JudgeDefinition } from '../../../shared/judges/judge-definition.js';
import { parseJudgeTwin } from '../../../shared/metrics/judge-twin-names.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { runKeys } from '../../../shared/run/run-identity.js';
import { caseMessageSchema } from '../../../shared/schema/pipeline-messages.js';
import type { CaseResult } from '../../../shared/schema/run-records.js';
import { humanVerdictMetrics } from '../../../shared/scoring/human-verdict-metrics.js';
import { evaluateCaseMessage } from '../../../shared/worker/evaluate-case.js';
import { manifest } from '../report/factories.js';

/**
 * A person's verdicts on an engine's response become metrics named after the
 * judge's own rating, `<scope>/human/<judge>/rating`, so the report can pair
 * the two.
 */
describe('the human verdict metrics of an engine', () => {
  it("takes the scope of the judge's own rating on the case, and pairs with it by name", () => {
    // Prepare
    const judged = {
      'response/llm_judged/correctness/rating': 'no',
      'retrieval/lexical/context_sufficiency/rating': 'yes',
      'retrieval/llm_judged/chunk_relevance/ratings': ['yes'],
    };

    // Act
    const metrics = humanVerdictMetrics({ human_verdicts: { correctness: 'yes', context_sufficiency: 'no' } }, judged, []);

    // Assess
    expect(metrics).toEqual({ 'response/human/correctness/rating': 'yes', 'retrieval/human/context_sufficiency/rating': 'no' });
    expect(parseJudgeTwin('response/llm_judged/correctness/rating')).toEqual({
      judge: 'correctness',
      human: 'response/human/correctness/rating',
    });
    expect(parseJudgeTwin('retrieval/lexical/context_sufficiency/rating')).toEqual({
      judge: 'context_sufficiency',
      human: 'retrieval/human/context_sufficiency/rating',
    });
  });

  it("makes a verdict of the other kind than the judge's rating an error of the case, not a verdict", () => {
    // Prepare: a number for a yes/no judge, yes for a judge that rates with a number, and a judge whose rating failed
    const judged = {
      'response/llm_judged/correctness/rating': 'yes',
      'response/llm_judged/cites_sources/rating': 2,
      'response/llm_judged/groundedness/rating': null,
    };

    // Act
    const metrics = humanVerdictMetrics({ human_verdicts: { correctness: 5, cites_sources: 'yes', groundedness: 3 } }, judged, []);

    // Assess: the rate would leave them out, the correction would read 5 as a rate; a failed rating says nothing of its kind
    expect(metrics).toEqual({
      'response/human/correctness/error_message':
        'the human verdict 5 is a number, but correctness rates yes or no: give "yes" or "no" in human_verdicts.correctness',
      'response/human/cites_sources/error_message':
        'the human verdict "yes" is yes or no, but cites_sources rates with a number: give a number on its scale in human_verdicts.cites_sources',
      'response/human/groundedness/rating': 3,
    });
  });

  it("takes a custom judge's scope from the run's judges when its rating is not on the case", () => {
    // The judge skipped the case (an input missing): its scope is the run's judge's, not the catalog's default
    const metrics = humanVerdictMetrics({ human_verdicts: { cites_sources: 3 } }, {}, [{ id: 'cites_sources', scope: 'retrieval' }]);

    expect(metrics).toEqual({ 'retrieval/human/cites_sources/rating': 3 });
  });

  it("falls back on the catalog's scope, then on response", () => {
    const metrics = humanVerdictMetrics(
      { human_verdicts: { context_sufficiency: 'yes', correctness_score: 0.5, unknown_judge: 'no' } },
      {},
      [],
    );

    expect(metrics).toEqual({
      'retrieval/human/context_sufficiency/rating': 'yes',
      'response/human/correctness_score/rating': 0.5,
      'response/human/unknown_judge/rating': 'no',
    });
  });

  it("pairs with a model variant's rating too, the judge's own rating first", () => {
    const variantOnly = humanVerdictMetrics(
      { human_verdicts: { correctness: 'yes' } },
      { 'retrieval/llm_judged/correctness@small/rating': 'yes' },
      [],
    );
    const both = humanVerdictMetrics(
      { human_verdicts: { correctness: 'yes' } },
      { 'retrieval/llm_judged/correctness@small/rating': 'yes', 'response/llm_judged/correctness/rating': 'yes' },
      [],
    );

    expect(variantOnly).toEqual({ 'retrieval/human/correctness/rating': 'yes' });
    expect(both).toEqual({ 'response/human/correctness/rating': 'yes' });
    expect(parseJudgeTwin('response/llm_judged/correctness@small/rating')).toEqual({
      judge: 'correctness@small',
      human: 'response/human/correctness/rating',
    });
  });

  it('gives nothing for an engine without human verdicts, and takes no repeated sample or human metric for a twin', () => {
    expect(humanVerdictMetrics({}, { 'response/llm_judged/correctness/rating': 'yes' }, [])).toEqual({});
    expect(parseJudgeTwin('response/llm_judged/correctness/sample_1/rating')).toBeUndefined();
    expect(parseJudgeTwin('response/human/correctness/rating')).toBeUndefined();
  });
});

describe('the judge worker on a case with human verdicts', () => {
  it("writes each engine's verdicts beside the judge's rating, and nothing for an engine without them", async () => {
    // Prepare: the lexical groundedness judge, and a person's verdicts on bm25's response
    const store = new MemoryStore();
    await store.put(
      runKeys.manifest('r-human'),
      JSON.stringify(manifest(['q1'], { run_id: 'r-human', config: { judges: ['groundedness'] } })),
    );
    const output = (response: string) => ({
      response,
      retrieved_context: [{ doc_uri: 'kb/keys', content: 'Create a second key, then delete the old one.', rank: 1 }],
      tags: {},
    });
    const message = caseMessageSchema.parse({
      kind: 'case',
      run_id: 'r-human',
      case_id: 'q1',
      case: {
        request_id: 'q1',
        request: 'How do I rotate a key?',
        tags: {},
        engines: {
          bm25: { ...output('Create a second key.'), human_verdicts: { groundedness: 'no', tone: 4 } },
          dense: output('Call support.'),
        },
      },
    });
    const groundedness = findJudge('groundedness') as JudgeDefinition;

    // Act
    const outcome = await evaluateCaseMessage(
      { store, judgingFor: () => ({ backend: { kind: 'lexical' }, judges: [groundedness] }) },
      message,
      { messageId: 'm-1', receiveCount: 1 },
    );

    // Assess
    expect(outcome.kind).toBe('done');
    const result = JSON.parse(new TextDecoder().decode(await store.get(runKeys.result('r-human', 'q1')))) as CaseResult;
    expect(result.engines.bm25?.['response/lexical/groundedness/rating']).toMatch(/^(yes|no)$/);
    expect(result.engines.bm25?.['response/human/groundedness/rating']).toBe('no');
    expect(result.engines.bm25?.['response/human/tone/rating']).toBe(4);
    expect(Object.keys(result.engines.dense ?? {}).filter((name) => name.includes('/human/'))).toEqual([]);
  });
});
