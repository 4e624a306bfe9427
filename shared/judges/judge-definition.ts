import type { Result } from '../schema/result.js';
import { z } from 'zod';
import { ratingSchema, ratingValue, type Rating, type Scale } from './scale.js';
import type { DagJudge } from './dag/dag-judge.js';
import type { EnsembleJudge } from './ensemble/ensemble-judge.js';
import type { ClientOverrides } from '../judge-client/judge-overrides.js';
import { checkTemplate, type TemplateInput } from './template.js';
import type { JudgeHeader } from './judge-header.js';

export type { Assessment, JudgeHeader, Scope } from './judge-header.js';

/**
 * The names under which a run summarises a yes/no rating. Databricks Agent
 * Evaluation calls the share of "yes" `rating/percentage` for most judges and
 * `rating/average` for safety (the mean of yes = 1, no = 0 over the judged
 * cases: the same number). A judge lists the names it is known by in
 * `ratingSummaries`; the report gives the share under each of them.
 */
export type RatingSummary = 'percentage' | 'average';

/** What a judge concluded about one item, whatever the shape of its answer. */
export interface Verdict {
  readonly rating: Rating;
  /** The rating as a number in [0, 1] (see scale.ts). */
  readonly value: number;
  readonly rationale: string;
  /** Extra named numbers worth reporting (rubric parts, statement counts). */
  readonly details?: Readonly<Record<string, number>>;
}

/** A judge that asks a model, through a prompt (what all judges share: judge-header.ts). */
export interface LlmJudge<Output = unknown> extends JudgeHeader<TemplateInput> {
  readonly kind: 'llm';
  readonly systemTemplate: string;
  readonly userTemplate: string;
  /** The answer the judge must give, sent as a JSON schema; always has a rationale. */
  readonly output: z.ZodType<Output>;
  /**
   * The verdict of a parsed answer. A method, so that a judge of any answer is
   * an LlmJudge (of unknown answer) where judges of several kinds are handled
   * alike: each is only ever given an answer its own `output` parsed.
   */
  verdict(output: Output): Verdict;
  /** The run statistics of a yes/no rating, `<prefix>/rating/<name>` (rating-summaries.ts); absent means `percentage` alone. */
  readonly ratingSummaries?: readonly RatingSummary[];
  /** The judge whose prompt and answer schema this one runs (a model variant `id@model`): its id names the cache entry and the schema sent. */
  readonly promptId?: string;
  /** Client settings of this judge alone (model, server, temperature, max tokens); absent ones are the run's. */
  readonly client?: ClientOverrides;
  /** Judgments drawn per item at the judge's temperature (judge-overrides.ts); absent means 1. */
  readonly repeat?: number;
}

/** A judge computed without a model (document_recall). */
export interface DeterministicJudge extends JudgeHeader {
  readonly kind: 'deterministic';
}

export type JudgeDefinition = LlmJudge | DeterministicJudge | DagJudge | EnsembleJudge;

/** The output of the judges whose whole answer is a rationale and a rating. */
export function ratingOutput(scale: Scale) {
  return z.object({
    rationale: z.string().describe('step-by-step reasoning, written before the rating'),
    rating: ratingSchema(scale),
  });
}

/** Verdict of a plain rating answer: its value the rating's on the scale (scale.ts). */
export function ratingVerdict(scale: Scale) {
  return (output: { rationale: string; rating: Rating }): Verdict => ({
    rating: output.rating,
    value: ratingValue(scale, output.rating),
    rationale: output.rationale,
  });
}

/** Checks a judge when it is loaded: its templates use known placeholders and all its inputs. */
export function checkJudge(judge: LlmJudge): Result<undefined> {
  const combined = `${judge.systemTemplate}\n${judge.userTemplate}`;
  const check = checkTemplate(combined, judge.inputs, `judge ${judge.id}`);
  if (!check.ok) return check;
  if (!/^[a-z][a-z0-9_]*$/.test(judge.id)) {
    return { ok: false, error: `judge id "${judge.id}" must be lower-case letters, digits and underscores, starting with a letter` };
  }
  return { ok: true, value: undefined };
}
