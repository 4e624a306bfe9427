import { z } from 'zod';

/**
 * The scale a judge rates on. Every scale maps a rating to a number in [0, 1]
 * (`value`) so that ratings of different judges can be averaged and compared,
 * while the rating itself is kept as the judge gave it.
 *
 * - yes_no: "yes" = 1, "no" = 0 (Databricks' judges, Spring AI's evaluators).
 * - grade: integers min..max with a label each, such as 0 none, 1 weak, 2 medium,
 *   3 strong; value = (rating - min) / (max - min).
 * - likert: integers 1..5; value = (rating - 1) / 4.
 * - score: a number in [0, 1]; value = rating.
 */
export const scaleSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('yes_no') }),
  z.object({
    type: z.literal('grade'),
    min: z.number().int(),
    max: z.number().int(),
    labels: z.array(z.string().min(1)),
  }),
  z.object({ type: z.literal('likert'), min: z.literal(1), max: z.literal(5) }),
  z.object({ type: z.literal('score'), min: z.literal(0), max: z.literal(1) }),
]);
export type Scale = z.infer<typeof scaleSchema>;

export const YES_NO: Scale = { type: 'yes_no' };
export const GRADE_0_3: Scale = { type: 'grade', min: 0, max: 3, labels: ['none', 'weak', 'medium', 'strong'] };
export const LIKERT_1_5: Scale = { type: 'likert', min: 1, max: 5 };
export const SCORE_0_1: Scale = { type: 'score', min: 0, max: 1 };

export type Rating = 'yes' | 'no' | number;

/** The zod schema of a rating on this scale, as the judge must answer it. */
export function ratingSchema(scale: Scale): z.ZodType<Rating> {
  switch (scale.type) {
    case 'yes_no':
      return z.enum(['yes', 'no']);
    case 'grade':
      return z.number().int().min(scale.min).max(scale.max);
    case 'likert':
      return z.number().int().min(1).max(5);
    case 'score':
      return z.number().min(0).max(1);
  }
}

/** The rating as a number in [0, 1]. */
export function ratingValue(scale: Scale, rating: Rating): number {
  if (scale.type === 'yes_no') return rating === 'yes' ? 1 : 0;
  const value = rating as number;
  if (scale.type === 'score') return value;
  return (value - scale.min) / (scale.max - scale.min);
}

/** How the scale reads in a prompt and in `assay judges`. */
export function describeScale(scale: Scale): string {
  switch (scale.type) {
    case 'yes_no':
      return 'yes/no';
    case 'grade':
      return `${scale.min}-${scale.max} grade (${scale.labels.map((label, index) => `${scale.min + index} ${label}`).join(', ')})`;
    case 'likert':
      return '1-5';
    case 'score':
      return 'score 0-1';
  }
}
