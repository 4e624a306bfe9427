import type { LlmJudge } from '../judge-definition.js';
import { feedbackScoreOutput, feedbackScoreVerdict, type FeedbackScoreAnswer } from '../feedback-score.js';
import { SCORE_0_1 } from '../scale.js';

/**
 * answer_faithfulness: Spring AI Alibaba's AnswerFaithfulnessEvaluator. Its
 * inputs are the facts (the request's supporting data: here the retrieved
 * context) and the answer; the question is not shown. Two criteria: the
 * answer rests on the facts and invents nothing, and it adds no false
 * information outside them. Score 1 meets every criterion, 0 does not, with
 * values in between allowed; the answer is `{feedback, score}`, and it passes
 * when the score is above 0 (feedback-score.ts). The share-of-supported-claims
 * judge that held this name before is `faithfulness`.
 */
export const answerFaithfulness: LlmJudge<FeedbackScoreAnswer> = {
  kind: 'llm',
  id: 'answer_faithfulness',
  version: '2',
  description: 'Per response: does it keep to the facts of the retrieved context, inventing nothing (score 0-1)?',
  scope: 'response',
  assessment: 'response',
  inputs: ['context', 'response'],
  scale: SCORE_0_1,
  systemTemplate:
    'You are an expert grader. You get a set of facts and an answer that was meant to be drawn from them, and you grade the answer on two criteria. ' +
    '(1) Everything the answer says is based on the facts; nothing is made up. ' +
    '(2) The answer carries no false information from outside what the facts cover. ' +
    'A score of 1, the best, means the answer meets both criteria; 0, the lowest, means it does not; a value in between is allowed for an answer that falls only partly short. ' +
    'Explain your reasoning step by step in "feedback", so that the score follows from it rather than being asserted, then give "score" as a number from 0 to 1. Reply with JSON only.',
  userTemplate: 'Facts:\n{context}\n\nAnswer:\n{response}',
  output: feedbackScoreOutput,
  verdict: feedbackScoreVerdict,
  source: 'Spring AI Alibaba AnswerFaithfulnessEvaluator (facts and answer; score 0-1 with feedback, passing when above 0)',
};
