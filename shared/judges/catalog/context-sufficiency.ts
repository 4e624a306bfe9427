import { ratingOutput, ratingVerdict, type LlmJudge } from '../judge-definition.js';
import { YES_NO } from '../scale.js';

const output = ratingOutput(YES_NO);

/**
 * context_sufficiency: did the engine retrieve everything needed to write the
 * expected response? One yes/no per engine and case. It separates retrieval
 * failures from generation failures: a wrong answer over sufficient context is
 * the generator's fault.
 */
export const contextSufficiency: LlmJudge<typeof output._output> = {
  kind: 'llm',
  id: 'context_sufficiency',
  version: '1',
  description: 'Per engine: does the retrieved context hold everything needed to produce the expected response (yes/no)?',
  scope: 'retrieval',
  assessment: 'case',
  inputs: ['request', 'context', 'expected_response'],
  scale: YES_NO,
  systemTemplate:
    'You check whether a search system found enough. You get a user request, the passages the system retrieved for it, ' +
    'and the answer an expert expects. Decide whether the passages, taken together, contain every piece of information ' +
    'needed to write the expected answer. Knowledge that is not in the passages does not count, however well known. ' +
    'Answer "yes" only when nothing the expected answer relies on is missing; otherwise answer "no" and name what is missing. ' +
    'Reason step by step in "rationale" first, then answer "rating" with "yes" or "no". Reply with JSON only.',
  userTemplate: 'Request:\n{request}\n\nRetrieved passages:\n{context}\n\nExpected answer:\n{expected_response}',
  output,
  verdict: ratingVerdict(YES_NO),
  source: 'Databricks Agent Evaluation context_sufficiency judge',
};
