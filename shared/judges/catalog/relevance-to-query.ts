import { ratingOutput, ratingVerdict, type LlmJudge } from '../judge-definition.js';
import { YES_NO } from '../scale.js';

const output = ratingOutput(YES_NO);

/**
 * relevance_to_query: does the response address the request? Yes/no per
 * engine. Truth is left to the other judges, so that an on-topic but wrong
 * answer shows up as relevant and incorrect rather than as two failures.
 */
export const relevanceToQuery: LlmJudge<typeof output._output> = {
  kind: 'llm',
  id: 'relevance_to_query',
  version: '1',
  description: 'Per response: does it address the request (yes/no)? Truth is not judged here.',
  scope: 'response',
  assessment: 'response',
  inputs: ['request', 'response'],
  scale: YES_NO,
  systemTemplate:
    "You judge whether an assistant's response addresses what the user asked. " +
    'It does when it answers the request, or, if it cannot answer, says so about this request. ' +
    'A response about something else, or one that answers a different question, does not. ' +
    'Judge relevance only: do not judge whether the response is true. ' +
    'Reason step by step in "rationale" first, then answer "rating" with "yes" or "no". Reply with JSON only.',
  userTemplate: 'Request:\n{request}\n\nResponse:\n{response}',
  output,
  verdict: ratingVerdict(YES_NO),
  source: 'Databricks Agent Evaluation relevance_to_query judge',
};
