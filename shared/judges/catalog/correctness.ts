import { ratingOutput, ratingVerdict, type LlmJudge } from '../judge-definition.js';
import { YES_NO } from '../scale.js';

const output = ratingOutput(YES_NO);

/**
 * correctness: does the response agree with the expected response and carry
 * its key facts? Yes/no per engine. When a dataset gives expected_facts the
 * runner still passes the expected response, so the inputs stay fixed and the
 * cache key does not depend on which ground truth a row happened to carry.
 */
export const correctness: LlmJudge<typeof output._output> = {
  kind: 'llm',
  id: 'correctness',
  version: '1',
  description: 'Per response: does it agree with the expected response and contain its key facts (yes/no)?',
  scope: 'response',
  assessment: 'response',
  inputs: ['request', 'response', 'expected_response'],
  scale: YES_NO,
  systemTemplate:
    'You grade answers against a reference. You get a user request, the answer under test, and the expected answer. ' +
    'The answer under test is correct when it agrees with the expected answer and contains its key facts. ' +
    'Different wording, another order and extra details are fine as long as nothing contradicts the expected answer. ' +
    'Answer "no" when a key fact of the expected answer is missing or contradicted, and name it. ' +
    'Reason step by step in "rationale" first, then answer "rating" with "yes" or "no". Reply with JSON only.',
  userTemplate: 'Request:\n{request}\n\nAnswer under test:\n{response}\n\nExpected answer:\n{expected_response}',
  output,
  verdict: ratingVerdict(YES_NO),
  source: 'Databricks Agent Evaluation correctness judge',
};
