import type { Verdict } from '../judge-definition.js';
import type { CombineRule } from './ensemble-judge.js';

/**
 * The verdict of an ensemble on one item, from its members' verdicts.
 * - majority (yes/no): "yes" when more members say yes than no; a tie is
 *   "no", so a "yes" always has a majority behind it. `agreement` is the
 *   share of members that gave the combined verdict (0.5 to 1).
 * - mean, median (graded and scored): of the members' ratings, on the
 *   scale's own units (a grade mean may fall between grades); `spread` is
 *   the largest minus the smallest member value on the 0-1 value scale.
 */
export interface CombinedVerdict {
  readonly verdict: Verdict;
  readonly agreement?: number;
  readonly spread?: number;
}

export function combineVerdicts(
  rule: CombineRule,
  memberIds: readonly string[],
  verdicts: readonly Verdict[],
  ratingToValue: (rating: number) => number,
): CombinedVerdict {
  const summary = verdicts.map((verdict, index) => `${memberIds[index]}: ${String(verdict.rating)}`).join(', ');
  if (rule === 'majority') {
    const yes = verdicts.filter((verdict) => verdict.rating === 'yes').length;
    const rating = yes > verdicts.length - yes ? 'yes' : 'no';
    const agreeing = rating === 'yes' ? yes : verdicts.length - yes;
    return {
      verdict: { rating, value: rating === 'yes' ? 1 : 0, rationale: `majority of ${summary}` },
      agreement: agreeing / verdicts.length,
    };
  }
  const ratings = verdicts.map((verdict) => verdict.rating as number);
  const rating = rule === 'mean' ? meanOf(ratings) : medianOf(ratings);
  const values = verdicts.map((verdict) => verdict.value);
  return {
    verdict: { rating, value: ratingToValue(rating), rationale: `${rule} of ${summary}` },
    spread: Math.max(...values) - Math.min(...values),
  };
}

export function meanOf(numbers: readonly number[]): number {
  let sum = 0;
  for (const number of numbers) sum += number;
  return sum / numbers.length;
}

/** The middle value; of an even count, the mean of the two middle ones. */
export function medianOf(numbers: readonly number[]): number {
  const sorted = [...numbers].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
