import { findJudge } from './catalog/index.js';
import type { RatingSummary } from './judge-definition.js';

export const DEFAULT_RATING_SUMMARIES: readonly RatingSummary[] = ['percentage'];

/** `<scope>/<source>/<judge id>[@<model>]/rating`: a judge's own rating, not a sample's or a part's. */
const JUDGE_RATING = /^[^/]+\/[^/]+\/([a-z][a-z0-9_]*)(?:@[^/]+)?\/rating$/;

/** The summaries of the yes/no rating metric `metric`: its judge's, or just the percentage. */
export function ratingSummariesOf(metric: string): readonly RatingSummary[] {
  const id = JUDGE_RATING.exec(metric)?.[1];
  const judge = id === undefined ? undefined : findJudge(id);
  return judge?.kind === 'llm' ? (judge.ratingSummaries ?? DEFAULT_RATING_SUMMARIES) : DEFAULT_RATING_SUMMARIES;
}
