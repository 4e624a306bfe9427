import { z } from 'zod';
import type { LlmJudge, Verdict } from '../judge-definition.js';
import type { Scale } from '../scale.js';

const part = z.number().int().min(0).max(3);

const output = z.object({
  rationale: z.string().describe('step-by-step reasoning on each criterion, written before the grades'),
  correctness: part,
  comprehensiveness: part,
  readability: part,
});
type RubricOutput = z.infer<typeof output>;

/** How much each criterion counts in the overall grade; any non-negative numbers, normalised to sum to 1. */
export const rubricWeightsSchema = z
  .strictObject({
    correctness: z.number().finite().min(0),
    comprehensiveness: z.number().finite().min(0),
    readability: z.number().finite().min(0),
  })
  .refine((weights) => weights.correctness + weights.comprehensiveness + weights.readability > 0, {
    message: 'expected at least one weight above 0',
  });
export type RubricWeights = z.infer<typeof rubricWeightsSchema>;

/** Correctness counts most: a fluent, complete answer that is wrong is still wrong. */
export const DEFAULT_RUBRIC_WEIGHTS: RubricWeights = { correctness: 0.6, comprehensiveness: 0.2, readability: 0.2 };

/** The weighted grade keeps the 0-3 range of its parts but may fall between integers. */
const RUBRIC_SCALE: Scale = { type: 'grade', min: 0, max: 3, labels: ['poor', 'fair', 'good', 'excellent'] };

const EXAMPLE =
  'All examples answer the request "How do I reset my password?" whose ground truth is ' +
  '"Open Settings > Account, choose Reset password and follow the link sent to your e-mail; the link expires after 24 hours."\n\n';

const CORRECTNESS =
  'Correctness: does the answer say what the ground truth says, without errors?\n' +
  '- 0: wrong or contradicts the ground truth. "Passwords cannot be reset online; call support."\n' +
  '- 1: partly right, but a key fact is wrong. "Choose Reset password in Settings; your new password is shown on screen."\n' +
  '- 2: right on the main point, with a minor error. "Choose Reset password in Settings > Account and follow the e-mailed link, which is valid for one hour."\n' +
  '- 3: fully right. "In Settings > Account choose Reset password, then open the link we e-mail you within 24 hours."\n\n';

const COMPREHENSIVENESS =
  'Comprehensiveness: does the answer cover every point of the ground truth that the request needs?\n' +
  '- 0: covers none of them. "Use the settings."\n' +
  '- 1: covers one point of several. "Choose Reset password."\n' +
  '- 2: covers all but a detail. "Choose Reset password in Settings > Account and follow the e-mailed link."\n' +
  '- 3: covers them all, including that the link expires after 24 hours.\n\n';

const READABILITY =
  'Readability: is the answer clear, well ordered and easy to follow?\n' +
  '- 0: hard to make sense of. "settings account reset mail link 24 password follow"\n' +
  '- 1: understandable with effort: run-on sentences, repetition or steps out of order.\n' +
  '- 2: clear, with some awkward or wordy phrasing.\n' +
  '- 3: clear and concise, steps in the order the user takes them.\n\n';

/**
 * rubric: three 0-3 grades (correctness, comprehensiveness, readability) with
 * one worked example per grade, combined into one weighted grade:
 *
 *   grade = w_c * correctness + w_m * comprehensiveness + w_r * readability   (weights normalised to sum 1)
 *   value = grade / 3
 *
 * The weights shape only the verdict, never the prompt, so changing them does
 * not invalidate cached answers and the version stays the same.
 * Throws on invalid weights: the config loader has already rejected them with
 * a message for the user, so reaching here with bad weights is a bug.
 */
export function rubricJudge(weights: RubricWeights = DEFAULT_RUBRIC_WEIGHTS): LlmJudge<RubricOutput> {
  const parsed = rubricWeightsSchema.safeParse(weights);
  if (!parsed.success) {
    throw new RangeError(`Expected rubric weights to be non-negative numbers with a sum above 0, got ${JSON.stringify(weights)}`);
  }
  const total = parsed.data.correctness + parsed.data.comprehensiveness + parsed.data.readability;
  const normalised: RubricWeights = {
    correctness: parsed.data.correctness / total,
    comprehensiveness: parsed.data.comprehensiveness / total,
    readability: parsed.data.readability / total,
  };
  return {
    kind: 'llm',
    id: 'rubric',
    version: '1',
    description:
      'Per response: 0-3 grades for correctness, comprehensiveness and readability against the expected response, combined by weight (default 0.6/0.2/0.2).',
    scope: 'response',
    assessment: 'response',
    inputs: ['request', 'response', 'expected_response'],
    scale: RUBRIC_SCALE,
    systemTemplate:
      'You grade an answer against a ground-truth answer on three criteria, each an integer from 0 to 3.\n\n' +
      EXAMPLE +
      CORRECTNESS +
      COMPREHENSIVENESS +
      READABILITY +
      'Grade each criterion on its own: a well written answer can still be wrong. ' +
      'Reason about each criterion in "rationale" first, then give "correctness", "comprehensiveness" and "readability". Reply with JSON only.',
    userTemplate: 'Request:\n{request}\n\nAnswer:\n{response}\n\nGround-truth answer:\n{expected_response}',
    output,
    verdict: (answer): Verdict => {
      const grade =
        normalised.correctness * answer.correctness +
        normalised.comprehensiveness * answer.comprehensiveness +
        normalised.readability * answer.readability;
      return {
        rating: grade,
        value: grade / 3,
        rationale: answer.rationale,
        details: { correctness: answer.correctness, comprehensiveness: answer.comprehensiveness, readability: answer.readability },
      };
    },
    source:
      'Databricks, "Best Practices for LLM Evaluation of RAG Applications" (0-3 grades for correctness, comprehensiveness and readability, weighted 60/20/20)',
  };
}

/** The rubric judge with the default weights, as listed in the catalog. */
export const rubric = rubricJudge();
