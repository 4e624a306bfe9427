import { z } from 'zod';
import type { Verdict } from './judge-definition.js';

/**
 * The answer of Spring AI Alibaba's graded evaluators (AnswerRelevancyEvaluator,
 * AnswerFaithfulnessEvaluator): a JSON object with a `score` from 0 to 1 and a
 * `feedback` text. Feedback comes first in the schema so that the model
 * reasons before it scores; field order does not matter when it is read.
 */
export const feedbackScoreOutput = z.object({
  feedback: z.string().describe('step-by-step reasoning against each criterion, written before the score'),
  score: z.number().min(0).max(1),
});
export type FeedbackScoreAnswer = z.infer<typeof feedbackScoreOutput>;

/**
 * The verdict of a feedback-and-score answer, read as those evaluators read it:
 * the score is the rating and its value, the feedback the rationale, and the
 * answer passes when its score is above 0 (detail `passing`, 1 or 0, which the
 * report averages into the share of passing answers).
 */
export function feedbackScoreVerdict(answer: FeedbackScoreAnswer): Verdict {
  return { rating: answer.score, value: answer.score, rationale: answer.feedback, details: { passing: answer.score > 0 ? 1 : 0 } };
}
