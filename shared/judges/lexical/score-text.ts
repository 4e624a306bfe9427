/**
 * A score as a rationale shows it: two decimals, or as many more as it takes
 * for the shown number to sit on the same side of every threshold as the score
 * itself. A coverage of 0.4996 shown as "0.50 < 0.5" would contradict its own
 * verdict; it is shown as "0.4996 < 0.5" instead.
 */
export function scoreText(score: number, thresholds: readonly number[]): string {
  for (let digits = 2; digits < MAXIMUM_DIGITS; digits++) {
    const shown = score.toFixed(digits);
    if (thresholds.every((threshold) => Number(shown) >= threshold === score >= threshold)) return shown;
  }
  // the shortest text that reads back as exactly this score, so it agrees with every comparison
  return String(score);
}

const MAXIMUM_DIGITS = 20;
