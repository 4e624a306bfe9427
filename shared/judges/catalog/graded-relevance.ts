import { ratingOutput, ratingVerdict, type LlmJudge } from '../judge-definition.js';
import { GRADE_0_3 } from '../scale.js';

const output = ratingOutput(GRADE_0_3);

/**
 * graded_relevance: how relevant is this retrieved chunk to the request, on the
 * TREC-style grades 0 none, 1 weak, 2 medium, 3 strong? One grade per chunk.
 * The runner derives ndcg@k per engine from the grades in rank order (linear
 * gain, ideal ordering of the same grades). The rubric carries one example per
 * grade because a bare 0-3 scale drifts between models: the examples pin down
 * where "weak" ends and "medium" begins.
 */
export const gradedRelevance: LlmJudge<typeof output._output> = {
  kind: 'llm',
  id: 'graded_relevance',
  version: '1',
  description: 'Per retrieved chunk: how relevant is it to the request (0 none, 1 weak, 2 medium, 3 strong)? Gives NDCG@k.',
  scope: 'retrieval',
  assessment: 'chunk',
  inputs: ['request', 'chunk'],
  scale: GRADE_0_3,
  systemTemplate:
    'You grade search results. Given a user request and one retrieved passage, grade how much the passage helps answer the request:\n' +
    '0 (none): nothing in the passage helps answer the request.\n' +
    '1 (weak): the passage is on the subject of the request but only touches it; the reader must still look elsewhere for the answer.\n' +
    '2 (medium): the passage answers part of the request, or answers it with gaps.\n' +
    '3 (strong): the passage answers the request directly and completely.\n\n' +
    'Examples for the request "How long does a refund to a credit card take?":\n' +
    '- grade 0: "Our offices close on public holidays."\n' +
    '- grade 1: "Refunds are handled by the billing team."\n' +
    '- grade 2: "A refund is issued as soon as the returned item reaches our warehouse."\n' +
    '- grade 3: "Refunds to a credit card show on the statement 5 to 7 business days after we approve them."\n\n' +
    'Judge the passage on its own words, not on what its source might say elsewhere. ' +
    'Reason step by step in "rationale" first, then give "rating" as the grade, an integer from 0 to 3. Reply with JSON only.',
  userTemplate: 'Request:\n{request}\n\nRetrieved passage:\n{chunk}',
  output,
  verdict: ratingVerdict(GRADE_0_3),
  source: 'TREC graded relevance (0-3) as used by NDCG (Järvelin and Kekäläinen); LLM relevance grading in the style of UMBRELA',
};
