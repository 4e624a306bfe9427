import { ratingOutput, ratingVerdict, type LlmJudge } from '../judge-definition.js';
import { YES_NO } from '../scale.js';

const output = ratingOutput(YES_NO);

/**
 * groundedness: is every claim of the response supported by the engine's own
 * retrieved context? Yes/no per engine; a "no" is a hallucination with
 * respect to what the engine retrieved, whether or not the claim is true.
 */
export const groundedness: LlmJudge<typeof output._output> = {
  kind: 'llm',
  id: 'groundedness',
  version: '1',
  description: 'Per response: is every claim in it supported by the retrieved context (yes/no)?',
  scope: 'response',
  assessment: 'response',
  inputs: ['response', 'context'],
  scale: YES_NO,
  systemTemplate:
    "You check an assistant's response against the passages it was given. " +
    'Decide whether every factual claim in the response is supported by the passages: ' +
    'a claim is supported when a passage states it or it follows directly from what the passages say. ' +
    'Claims that are true but absent from the passages are not supported. ' +
    'Sentences that claim nothing (greetings, offers to help) need no support. ' +
    'Answer "no" when any claim is unsupported or contradicted, and quote it. ' +
    'Reason step by step in "rationale" first, then answer "rating" with "yes" or "no". Reply with JSON only.',
  userTemplate: 'Retrieved passages:\n{context}\n\nResponse:\n{response}',
  output,
  verdict: ratingVerdict(YES_NO),
  source: 'Databricks Agent Evaluation groundedness judge',
};
