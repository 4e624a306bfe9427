import { z } from 'zod';
import type { LlmJudge, Verdict } from '../judge-definition.js';
import { SCORE_0_1 } from '../scale.js';

const output = z.object({
  feedback: z.string().describe('the claims of the answer and whether the context supports each, written before the score'),
  score: z.number().min(0).max(1),
});
type FaithfulnessOutput = z.infer<typeof output>;

/**
 * faithfulness: how much of the response the retrieved context
 * supports, as a score from 0 to 1. The graded sibling of `groundedness`. The
 * answer is `{feedback, score}`, the shape LlamaIndex's evaluators return;
 * feedback plays the part of the rationale. Its score is the share of
 * supported claims, where Spring AI Alibaba's AnswerFaithfulnessEvaluator
 * (now `answer_faithfulness`) scores whether the answer meets its criteria;
 * hence its own name, the RAGAS one.
 */
export const faithfulness: LlmJudge<FaithfulnessOutput> = {
  kind: 'llm',
  id: 'faithfulness',
  version: '1',
  description: 'Per response: how much of it is supported by the retrieved context (score 0-1)?',
  scope: 'response',
  assessment: 'response',
  inputs: ['request', 'response', 'context'],
  scale: SCORE_0_1,
  systemTemplate:
    'You score how faithful an answer is to the context it was written from. ' +
    'Pick out the factual claims the answer makes about the request and check each against the context: ' +
    'supported when the context states it or it follows directly, unsupported otherwise, even if it is true. ' +
    'The score is about the share of supported claims: 1 when every claim is supported, 0 when none is or the answer contradicts the context. ' +
    'An answer that only says it cannot answer makes no claim and scores 1. ' +
    'Write "feedback" first, listing the claims and whether each is supported, then give "score" as a number from 0 to 1. Reply with JSON only.',
  userTemplate: 'Request:\n{request}\n\nAnswer:\n{response}\n\nContext:\n{context}',
  output,
  verdict: (answer): Verdict => ({ rating: answer.score, value: answer.score, rationale: answer.feedback }),
  source:
    'RAGAS faithfulness (share of supported claims), asked as one 0-1 score; feedback-then-score answer as in LlamaIndex evaluators; renamed from answer_faithfulness, which follows Spring AI Alibaba',
};
