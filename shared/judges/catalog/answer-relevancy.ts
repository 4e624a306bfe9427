import type { LlmJudge } from '../judge-definition.js';
import { feedbackScoreOutput, feedbackScoreVerdict, type FeedbackScoreAnswer } from '../feedback-score.js';
import { SCORE_0_1 } from '../scale.js';

/**
 * answer_relevancy: Spring AI Alibaba's AnswerRelevancyEvaluator. Its inputs
 * are the question, a ground-truth answer and the answer under test. The
 * evaluator fills the ground-truth slot from the request's supporting data,
 * where its own tests put the reference answer; assay's reference answer is
 * `expected_response` (its supporting data, the retrieved context, is no
 * ground truth), so that is what this judge reads. Criteria: against the
 * ground truth the answer is factual, accurate and relevant; it does not
 * contradict itself; it may say more than the ground truth if the extra keeps
 * to those standards. Score 1 meets every criterion, 0 does not, values in
 * between allowed; the answer is `{feedback, score}`, passing above 0
 * (feedback-score.ts). The relevance-only judge that held this name before is
 * `response_relevancy`.
 */
export const answerRelevancy: LlmJudge<FeedbackScoreAnswer> = {
  kind: 'llm',
  id: 'answer_relevancy',
  version: '2',
  description: 'Per response: is it factual, accurate and relevant measured against the expected response (score 0-1)?',
  scope: 'response',
  assessment: 'response',
  inputs: ['request', 'expected_response', 'response'],
  scale: SCORE_0_1,
  systemTemplate:
    'You are an expert grader. You get a question, a ground-truth answer that is correct by definition, and a student answer to grade on three criteria. ' +
    '(1) Measured against the ground truth, the student answer is factual, accurate and relevant to the question. ' +
    '(2) The student answer does not contradict itself. ' +
    '(3) The student answer may hold more than the ground truth, as long as what it adds stays factual, accurate and relevant with respect to the ground truth. ' +
    'A score of 1, the best, means the student answer meets every criterion; 0, the lowest, means it does not; a value in between is allowed for an answer that meets them in part. ' +
    'Explain your reasoning step by step in "feedback", so that the score follows from it rather than being asserted, then give "score" as a number from 0 to 1. Reply with JSON only.',
  userTemplate: 'Question:\n{request}\n\nGround-truth answer:\n{expected_response}\n\nStudent answer:\n{response}',
  output: feedbackScoreOutput,
  verdict: feedbackScoreVerdict,
  source:
    'Spring AI Alibaba AnswerRelevancyEvaluator (question, ground-truth answer, student answer; score 0-1 with feedback, passing when above 0)',
};
