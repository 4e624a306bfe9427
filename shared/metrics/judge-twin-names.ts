/**
 * The names of a judge's twin of a human metric: what a corrected estimate
 * pairs, the twin on every case, the human metric on the labelled ones.
 *
 * - A relevance judge's twin of a ground-truth metric
 *   (`retrieval/ground_truth/<metric>`) is the same metric with the judge's
 *   grades as the qrels, `retrieval/<source>/<judge>/qrels/<metric>` (written
 *   by shared/scoring/judge-qrels-metrics.ts).
 * - An answer judge's rating `<scope>/<source>/<judge>/rating` (source
 *   `llm_judged` or `lexical`; a model variant `<judge>@<model>` too) is the
 *   twin of the human verdict on the same response,
 *   `<scope>/human/<judge>/rating` (the dataset's `human_verdicts`, written by
 *   shared/scoring/human-verdict-metrics.ts), yes read as 1 and no as 0.
 */

/** The prefix of every ground-truth metric. */
export const GROUND_TRUTH_PREFIX = 'retrieval/ground_truth/';

const QRELS_TWIN = /^retrieval\/(?:llm_judged|lexical)\/([^/]+)\/qrels\/([^/]+)$/;
const RATING_TWIN = /^([a-z]+)\/(?:llm_judged|lexical)\/(([a-z][a-z0-9_]*)(?:@[^/]+)?)\/rating$/;
const HUMAN_VERDICT = /^[a-z]+\/human\/[a-z][a-z0-9_]*\/rating$/;

export function judgeTwinName(source: string, judge: string, metric: string): string {
  return `retrieval/${source}/${judge}/qrels/${metric}`;
}

/** The metric of a person's verdict for judge `judge` on a response, in the scope of the judge's own rating. */
export function humanVerdictName(scope: string, judge: string): string {
  return `${scope}/human/${judge}/rating`;
}

/** A human metric that a judge's twin can correct: a ground-truth metric, or a human verdict. */
export function isCorrectableMetric(name: string): boolean {
  return name.startsWith(GROUND_TRUTH_PREFIX) || HUMAN_VERDICT.test(name);
}

/**
 * The judge (as the report names it: its id, with its model variant) and the
 * human metric (its full name) of a twin's name; undefined for any other name.
 */
export function parseJudgeTwin(name: string): { readonly judge: string; readonly human: string } | undefined {
  const qrels = QRELS_TWIN.exec(name);
  if (qrels !== null) return { judge: qrels[1] ?? '', human: `${GROUND_TRUTH_PREFIX}${qrels[2] ?? ''}` };
  const rating = RATING_TWIN.exec(name);
  if (rating !== null) return { judge: rating[2] ?? '', human: humanVerdictName(rating[1] ?? '', rating[3] ?? '') };
  return undefined;
}

/**
 * A twin's or a human metric's per-case value as a number: a finite number as
 * it is, a verdict "yes" as 1 and "no" as 0; undefined for anything else
 * (null, texts, per-chunk lists).
 */
export function pairedNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (value === 'yes') return 1;
  if (value === 'no') return 0;
  return undefined;
}
