import { ratingOutput, ratingVerdict, type LlmJudge } from '../judge-definition.js';
import { YES_NO } from '../scale.js';

const output = ratingOutput(YES_NO);

/**
 * fact_check: MiniCheck's document/claim framing, which Spring AI's
 * FactCheckingEvaluator adopts: the retrieved context is the document, the
 * whole response is the claim. Yes/no per engine. Unlike groundedness it has
 * no carve-out for sentences that claim nothing, which keeps it close to the
 * small fact-checking models it was designed for.
 */
export const factCheck: LlmJudge<typeof output._output> = {
  kind: 'llm',
  id: 'fact_check',
  version: '1',
  description: 'Per response: is the response, read as one claim, supported by the retrieved context as a document (yes/no)?',
  scope: 'response',
  assessment: 'response',
  inputs: ['context', 'response'],
  scale: YES_NO,
  systemTemplate:
    'You verify a claim against a document. The claim is supported when every part of it is stated in the document ' +
    'or follows from it. Use only the document: outside knowledge neither supports nor refutes the claim. ' +
    'Reason step by step in "rationale" first, then answer "rating" with "yes" (supported) or "no" (not supported). Reply with JSON only.',
  userTemplate: 'Document:\n{context}\n\nClaim:\n{response}',
  output,
  verdict: ratingVerdict(YES_NO),
  source: 'Spring AI FactCheckingEvaluator (MiniCheck, Tang et al. 2024)',
};
