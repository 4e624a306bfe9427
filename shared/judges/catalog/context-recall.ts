import { z } from 'zod';
import type { LlmJudge, Verdict } from '../judge-definition.js';
import { SCORE_0_1 } from '../scale.js';

const statementSchema = z.object({
  statement: z.string().describe('one self-contained fact taken from the expected answer'),
  rationale: z.string().describe('which passage supports the statement, or why none does'),
  attributed: z.enum(['yes', 'no']).describe('"yes" when the retrieved passages support the statement'),
});

const output = z.object({
  statements: z.array(statementSchema),
  rationale: z.string().describe('a short summary of what the passages cover and what they miss'),
});
type ContextRecallOutput = z.infer<typeof output>;

/**
 * context_recall: the share of the expected response's statements that the
 * retrieved context supports, as RAGAS computes it. The model splits and
 * attributes; the ratio is computed here, so a model cannot miscount.
 *
 *   context_recall = attributed statements / statements
 *
 * Each statement's rationale comes before its "attributed" answer, so the
 * model reasons before it decides. An expected response with no statements
 * gives 0 (nothing could be checked), never NaN.
 */
export const contextRecall: LlmJudge<ContextRecallOutput> = {
  kind: 'llm',
  id: 'context_recall',
  version: '1',
  description: "Per engine: share of the expected response's statements that the retrieved context supports (score 0-1).",
  scope: 'retrieval',
  assessment: 'case',
  inputs: ['context', 'expected_response'],
  scale: SCORE_0_1,
  systemTemplate:
    'You measure how much of a reference answer a set of retrieved passages supports. ' +
    'First split the reference answer into short statements, each holding one fact and readable on its own ' +
    '(replace pronouns with what they stand for). Then, for each statement, decide whether the passages support it: ' +
    '"yes" when a passage states it or it follows directly from what the passages say, "no" otherwise. ' +
    'Do not use knowledge from outside the passages. ' +
    'For each statement give "statement", then "rationale", then "attributed" ("yes" or "no"). ' +
    'End with an overall "rationale" that sums up what the passages cover and what they miss. Reply with JSON only.',
  userTemplate: 'Reference answer:\n{expected_response}\n\nRetrieved passages:\n{context}',
  output,
  verdict: contextRecallVerdict,
  source: 'RAGAS context_recall / DeepEval contextual recall',
};

function contextRecallVerdict(answer: ContextRecallOutput): Verdict {
  const total = answer.statements.length;
  const attributed = answer.statements.filter((statement) => statement.attributed === 'yes').length;
  if (total === 0) {
    return {
      rating: 0,
      value: 0,
      rationale: `No statements were taken from the expected response, so context recall is 0. ${answer.rationale}`.trim(),
      details: { statements: 0, attributed: 0 },
    };
  }
  const recall = attributed / total;
  return { rating: recall, value: recall, rationale: answer.rationale, details: { statements: total, attributed } };
}
