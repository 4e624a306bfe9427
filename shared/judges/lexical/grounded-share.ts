/**
 * How much of a response's wording the context supports: the share of the
 * response's content tokens (repeats counted, as in unigram precision) that
 * occur anywhere in the context.
 *
 *   share = |{ i : response token i occurs in some context passage }| / |response tokens|
 *
 * Each context passage is tokenized on its own, so no CJK bigram spans the seam
 * between two passages. A response without content tokens has nothing to check:
 * share 0, not 0/0, so the judge cannot call an empty answer grounded.
 */
export interface GroundedShare {
  /** Content tokens of the response, repeats counted. */
  readonly tokens: number;
  /** Of those, how many occur in the context. */
  readonly grounded: number;
  /** grounded / tokens, in [0, 1]. */
  readonly share: number;
}

export function groundedShare(responseTokens: readonly string[], contextTokens: Iterable<readonly string[]>): GroundedShare {
  const known = new Set<string>();
  for (const passage of contextTokens) for (const token of passage) known.add(token);
  let grounded = 0;
  for (const token of responseTokens) if (known.has(token)) grounded++;
  const tokens = responseTokens.length;
  return { tokens, grounded, share: tokens === 0 ? 0 : grounded / tokens };
}
