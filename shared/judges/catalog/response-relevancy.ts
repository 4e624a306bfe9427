import { ratingOutput, ratingVerdict, type LlmJudge } from '../judge-definition.js';
import { SCORE_0_1 } from '../scale.js';

const output = ratingOutput(SCORE_0_1);

/**
 * response_relevancy: how well does the response address the request, with the
 * expected response as the yardstick of a fully relevant answer? A score from
 * 0 to 1. Unlike relevance_to_query it rewards answers that stay as focused and
 * complete as the ground truth, and penalises padding and partial answers.
 * It judges relevance and not truth, which sets it apart from Spring AI
 * Alibaba's AnswerRelevancyEvaluator (now `answer_relevancy`), whose score is
 * the answer's factual agreement with the ground truth; hence its own name,
 * the one RAGAS gives its answer relevancy metric.
 */
export const responseRelevancy: LlmJudge<typeof output._output> = {
  kind: 'llm',
  id: 'response_relevancy',
  version: '1',
  description: 'Per response: how relevant is it to the request compared with the expected response (score 0-1)?',
  scope: 'response',
  assessment: 'response',
  inputs: ['request', 'response', 'expected_response'],
  scale: SCORE_0_1,
  systemTemplate:
    'You score how relevant an answer is to a request. A ground-truth answer shows what a fully relevant answer addresses. ' +
    'Score 1 when the answer addresses the request as directly and fully as the ground truth does, without wandering off; ' +
    'lower it when the answer covers only part of what the request asks, is padded with material the request did not ask for, ' +
    'or is evasive; score 0 when it does not address the request at all. ' +
    'Judge relevance, not truth: a wrong fact on the right subject is still relevant. ' +
    'Reason step by step in "rationale" first, then give "rating" as a number from 0 to 1. Reply with JSON only.',
  userTemplate: 'Request:\n{request}\n\nAnswer:\n{response}\n\nGround-truth answer:\n{expected_response}',
  output,
  verdict: ratingVerdict(SCORE_0_1),
  source:
    'RAGAS response (answer) relevancy: does the answer address the question; here one 0-1 score with the ground-truth answer as the yardstick, instead of generated questions and embeddings',
};
