import { ratingOutput, ratingVerdict, type LlmJudge } from '../judge-definition.js';
import { YES_NO } from '../scale.js';

const output = ratingOutput(YES_NO);

/**
 * answer_correctness: Spring AI Alibaba's AnswerCorrectnessEvaluator. It
 * takes the query, the response and the request's supporting data, and asks
 * whether the response agrees with that data, YES or NO; YES is a pass with
 * score 1, anything else score 0. The supporting data of a Spring AI request
 * is its `dataList`, which assay reads as the retrieved context, so this judge
 * checks the response against the engine's own context. The answer is
 * assay's usual JSON (a rationale, then the rating); "YES"/"NO" in capitals
 * are read as yes/no. For a graded check against the expected response, use
 * correctness_score (this judge's former definition, renamed).
 */
export const answerCorrectness: LlmJudge<typeof output._output> = {
  kind: 'llm',
  id: 'answer_correctness',
  version: '2',
  description: 'Per response: does the response to the query agree with the context it came with (yes/no)?',
  scope: 'response',
  assessment: 'response',
  inputs: ['request', 'response', 'context'],
  scale: YES_NO,
  systemTemplate:
    'You check whether the response a system gave to a query is consistent with the context information supplied with it. ' +
    'Answer "yes" when what the response says agrees with the context, and "no" when it contradicts the context or does not match it. ' +
    'Reason step by step in "rationale" first, then answer "rating" with "yes" or "no". Reply with JSON only.',
  userTemplate: 'Query:\n{request}\n\nResponse:\n{response}\n\nContext:\n{context}',
  output,
  verdict: ratingVerdict(YES_NO),
  source: 'Spring AI Alibaba AnswerCorrectnessEvaluator (query, response and supporting data; YES/NO read as score 1/0)',
};
