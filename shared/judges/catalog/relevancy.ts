import { ratingOutput, ratingVerdict, type LlmJudge } from '../judge-definition.js';
import { YES_NO } from '../scale.js';

const output = ratingOutput(YES_NO);

/**
 * relevancy: Spring AI's RelevancyEvaluator question, one yes/no per engine
 * that joins two checks: the response answers the request, and it is in line
 * with the retrieved context. Use relevance_to_query and groundedness to tell
 * the two apart.
 */
export const relevancy: LlmJudge<typeof output._output> = {
  kind: 'llm',
  id: 'relevancy',
  version: '1',
  description: 'Per response: is it in line with the retrieved context and relevant to the request (yes/no)?',
  scope: 'response',
  assessment: 'response',
  inputs: ['request', 'response', 'context'],
  scale: YES_NO,
  systemTemplate:
    "You judge an assistant's response on two counts at once. It must be relevant to the request: it answers what was asked. " +
    'And it must be in line with the retrieved context: what it says agrees with the context and does not go beyond it on the facts. ' +
    'Answer "yes" only when both hold; otherwise answer "no" and say which count fails. ' +
    'Reason step by step in "rationale" first, then answer "rating" with "yes" or "no". Reply with JSON only.',
  userTemplate: 'Request:\n{request}\n\nResponse:\n{response}\n\nRetrieved context:\n{context}',
  output,
  verdict: ratingVerdict(YES_NO),
  source: 'Spring AI RelevancyEvaluator',
};
