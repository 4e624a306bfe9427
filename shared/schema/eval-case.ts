import { z } from 'zod';
import { MAX_GRADE } from './relevance-grade.js';

/**
 * The normalised evaluation case every loader produces, whatever convention the
 * dataset was written in (Databricks/MLflow, RAGAS, DeepEval, Spring AI, TREC).
 *
 * One case is one request (query). Several engines' answers to the same request
 * live side by side in `engines`, so the judges and metrics can compare them on
 * the same footing. A dataset that names no engine uses the engine `default`.
 */

/** Engine name used when a dataset does not name one. */
export const DEFAULT_ENGINE = 'default';

/** Free-form metadata: unknown fields of a row are kept here, never dropped. */
export const tagsSchema = z.record(z.string(), z.unknown());
export type Tags = z.infer<typeof tagsSchema>;

/** One retrieved chunk, in the engine's ranked list. */
export const retrievedChunkSchema = z.object({
  /** Stable document id. Chunks given only as text get `content:<sha256 prefix>` ids. */
  doc_uri: z.string().min(1),
  content: z.string().optional(),
  score: z.number().finite().optional(),
  /** 1-based rank; the list is sorted by it. */
  rank: z.number().int().positive(),
  /** Whatever else the dataset said about the chunk (Spring AI Document metadata, extra keys). */
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type RetrievedChunk = z.infer<typeof retrievedChunkSchema>;

/** One ground-truth document, optionally with a graded relevance label. */
export const expectedDocumentSchema = z.object({
  doc_uri: z.string().min(1),
  content: z.string().optional(),
  /**
   * Relevance grade as in TREC qrels (0 = judged not relevant, 1+ = relevant,
   * negative = judged but to be ignored), at most MAX_GRADE. Absent means
   * "relevant" (grade 1).
   */
  grade: z.number().int().max(MAX_GRADE).optional(),
  /** Whatever else the dataset said about the document. */
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type ExpectedDocument = z.infer<typeof expectedDocumentSchema>;

/**
 * A person's verdict on one engine's response for one judge: "yes" or "no"
 * for a yes/no judge, a number on the scale of a graded one.
 */
export const humanVerdictSchema = z.union([z.enum(['yes', 'no']), z.number().finite()]);
export type HumanVerdict = z.infer<typeof humanVerdictSchema>;

/** What one engine returned for the request. */
export const engineOutputSchema = z.object({
  retrieved_context: z.array(retrievedChunkSchema),
  response: z.string().optional(),
  /**
   * Judge id → a person's verdict on this response (the dataset's
   * `human_verdicts`): the human counterpart of the judge's rating, which
   * the report corrects the judge's verdict rate with.
   */
  human_verdicts: z.record(z.string(), humanVerdictSchema).optional(),
  /** Unknown fields of this engine's row that differ from the case's shared tags. */
  tags: tagsSchema,
});
export type EngineOutput = z.infer<typeof engineOutputSchema>;

export const evalCaseSchema = z.object({
  request_id: z.string().min(1),
  request: z.string(),
  engines: z.record(z.string().min(1), engineOutputSchema),
  expected_response: z.string().optional(),
  expected_facts: z.array(z.string()).optional(),
  expected_retrieved_context: z.array(expectedDocumentSchema).optional(),
  /** Fields shared by every row of the case that assay does not interpret. */
  tags: tagsSchema,
});
export type EvalCase = z.infer<typeof evalCaseSchema>;
