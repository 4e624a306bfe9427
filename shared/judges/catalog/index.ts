import type { JudgeDefinition } from '../judge-definition.js';
import { answerCorrectness } from './answer-correctness.js';
import { answerFaithfulness } from './answer-faithfulness.js';
import { answerRelevancy } from './answer-relevancy.js';
import { chunkRelevance } from './chunk-relevance.js';
import { contextRecall } from './context-recall.js';
import { contextSufficiency } from './context-sufficiency.js';
import { correctness } from './correctness.js';
import { correctnessScore } from './correctness-score.js';
import { documentRecallJudge } from './document-recall.js';
import { factCheck } from './fact-check.js';
import { faithfulness } from './faithfulness.js';
import { gradedRelevance } from './graded-relevance.js';
import { groundedness } from './groundedness.js';
import { relevanceToQuery } from './relevance-to-query.js';
import { relevancy } from './relevancy.js';
import { responseRelevancy } from './response-relevancy.js';
import { rubric } from './rubric.js';
import { safety } from './safety.js';

export { DEFAULT_RUBRIC_WEIGHTS, rubricJudge, rubricWeightsSchema, type RubricWeights } from './rubric.js';

/**
 * Every built-in judge, retrieval judges first, then response judges (Spring
 * AI's and Spring AI Alibaba's evaluators after Databricks' judges, then the
 * graded judges of assay's own). The order is the order of `assay judges` and
 * of the report's sections.
 */
export const JUDGE_CATALOG: readonly JudgeDefinition[] = [
  chunkRelevance,
  gradedRelevance,
  contextSufficiency,
  contextRecall,
  documentRecallJudge,
  correctness,
  relevanceToQuery,
  groundedness,
  safety,
  factCheck,
  relevancy,
  answerCorrectness,
  answerFaithfulness,
  answerRelevancy,
  correctnessScore,
  faithfulness,
  responseRelevancy,
  rubric,
];

/** The built-in judge with this id, or undefined. */
export function findJudge(id: string): JudgeDefinition | undefined {
  return JUDGE_CATALOG.find((judge) => judge.id === id);
}
