import { ratingOutput, ratingVerdict, type LlmJudge } from '../judge-definition.js';
import { YES_NO } from '../scale.js';

const output = ratingOutput(YES_NO);

/**
 * chunk_relevance: is this retrieved chunk relevant to the request? One yes/no
 * per chunk. The runner derives, per engine, precision (share of "yes") and
 * average precision over the verdicts in rank order.
 */
export const chunkRelevance: LlmJudge<typeof output._output> = {
  kind: 'llm',
  id: 'chunk_relevance',
  version: '1',
  description: 'Per retrieved chunk: is it relevant to the request (yes/no)? Gives precision and average precision.',
  scope: 'retrieval',
  assessment: 'chunk',
  inputs: ['request', 'chunk'],
  scale: YES_NO,
  systemTemplate:
    'You judge search results. Decide whether a retrieved passage is relevant to a user request: ' +
    'relevant means it contains information that helps answer the request, fully or in part. ' +
    'A passage on the same topic that does not help answer the request is not relevant. ' +
    'Reason step by step in "rationale" first, then answer "rating" with "yes" or "no". Reply with JSON only.',
  userTemplate: 'Request:\n{request}\n\nRetrieved passage:\n{chunk}',
  output,
  verdict: ratingVerdict(YES_NO),
  source:
    'Databricks Agent Evaluation chunk_relevance (yes/no per chunk, precision); AP over verdicts in rank order as in the Aliyun RAG evaluation recipe',
};
