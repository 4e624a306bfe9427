/**
 * The names of a relevance judge's twin of a ground-truth metric: the same
 * metric (`retrieval/ground_truth/<metric>`) with the judge's grades as the
 * qrels, `retrieval/<source>/<judge>/qrels/<metric>` (written by
 * shared/scoring/judge-qrels-metrics.ts). What a corrected estimate pairs:
 * the twin on every case, the ground-truth metric on the labelled ones.
 */
export const GROUND_TRUTH_PREFIX = 'retrieval/ground_truth/';

const TWIN = /^retrieval\/(?:llm_judged|lexical)\/([^/]+)\/qrels\/([^/]+)$/;

export function judgeTwinName(source: string, judge: string, metric: string): string {
  return `retrieval/${source}/${judge}/qrels/${metric}`;
}

/** The judge and the ground-truth metric (without its prefix) of a twin's name; undefined for any other name. */
export function parseJudgeTwin(name: string): { readonly judge: string; readonly metric: string } | undefined {
  const match = TWIN.exec(name);
  return match === null ? undefined : { judge: match[1] ?? '', metric: match[2] ?? '' };
}
