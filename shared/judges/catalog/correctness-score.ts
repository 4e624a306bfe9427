import { ratingOutput, ratingVerdict, type LlmJudge } from '../judge-definition.js';
import { SCORE_0_1 } from '../scale.js';

const output = ratingOutput(SCORE_0_1);

/**
 * correctness_score: how correct is the response compared with the expected
 * response, as a score from 0 to 1? The graded sibling of `correctness`: it
 * tells a half-right answer from a wrong one, where the yes/no judge cannot.
 * It was once called answer_correctness; that name now belongs to Spring AI
 * Alibaba's AnswerCorrectnessEvaluator, which asks another question (does the
 * response agree with the context, yes or no).
 */
export const correctnessScore: LlmJudge<typeof output._output> = {
  kind: 'llm',
  id: 'correctness_score',
  version: '1',
  description: 'Per response: how correct is it compared with the expected response (score 0-1)?',
  scope: 'response',
  assessment: 'response',
  inputs: ['request', 'response', 'expected_response'],
  scale: SCORE_0_1,
  systemTemplate:
    'You score how correct an answer is, using a ground-truth answer as the reference. ' +
    'List the facts of the ground truth that matter for the request and check each against the answer; ' +
    'then look for claims in the answer that contradict the ground truth. ' +
    'Score 1 when the answer states every such fact and contradicts none; about 0.5 when it gets some facts right ' +
    'but misses others or mixes in a wrong claim; 0 when it is wrong, contradicts the ground truth or says nothing that counts. ' +
    'Wording and length do not matter. ' +
    'Reason step by step in "rationale" first, then give "rating" as a number from 0 to 1. Reply with JSON only.',
  userTemplate: 'Request:\n{request}\n\nAnswer:\n{response}\n\nGround-truth answer:\n{expected_response}',
  output,
  verdict: ratingVerdict(SCORE_0_1),
  source:
    'RAGAS answer_correctness (agreement with the ground truth), asked as one 0-1 score with a rationale; renamed from answer_correctness, which follows Spring AI Alibaba',
};
