import type { DeterministicJudge } from '../judge-definition.js';
import { SCORE_0_1 } from '../scale.js';

/**
 * document_recall: the share of the expected documents (by doc_uri) found
 * anywhere among an engine's retrieved chunks, computed by
 * shared/metrics/document-recall.ts without a model. It is listed with the
 * judges so that `assay judges` and the config's `judges` list cover every
 * per-case assessment in one place.
 */
export const documentRecallJudge: DeterministicJudge = {
  kind: 'deterministic',
  id: 'document_recall',
  version: '1',
  description: 'Per engine: share of the expected documents (by doc_uri) found among the retrieved ones (score 0-1), no model needed.',
  scope: 'retrieval',
  assessment: 'case',
  inputs: ['retrieved_context', 'expected_retrieved_context'],
  scale: SCORE_0_1,
  source: 'Databricks Agent Evaluation retrieval/ground_truth/document_recall',
};
