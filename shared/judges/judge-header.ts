import type { Scale } from './scale.js';

/**
 * A judge is data: what it assesses, the inputs it needs, its prompt, the
 * JSON it must answer with, its scale, and how its answer becomes a verdict.
 * The judge runner (run-judges.ts) turns verdicts into metrics.
 *
 * - assessment `chunk`: one call per retrieved chunk (pooled: the same request
 *   and chunk text is judged once for all engines of a case);
 * - assessment `response`: one call per engine's response;
 * - assessment `case`: one call per engine's whole retrieved context.
 * scope names the metric family: `retrieval/...` or `response/...`.
 */
export type Assessment = 'chunk' | 'response' | 'case';
export type Scope = 'retrieval' | 'response';

/** What every kind of judge says of itself, whatever computes its verdict. */
export interface JudgeHeader<Input extends string = string> {
  readonly id: string;
  /** Bumped whenever the prompt, schema or parsing changes: it is part of the cache key. */
  readonly version: string;
  readonly description: string;
  readonly scope: Scope;
  readonly assessment: Assessment;
  /** The inputs the judge needs; a case lacking one is not judged (and says why). */
  readonly inputs: readonly Input[];
  readonly scale: Scale;
  /** Where the prompt and the formula come from. */
  readonly source: string;
}
