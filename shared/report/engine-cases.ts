const COUNT = '/count';

/**
 * A count of a metric asked of every case of its engine: a judge's own value
 * (`<scope>/<source>/<judge>/<metric>/count`, a rating, precision or NDCG: on
 * a case it is there or replaced by the judge's error) or a live engine's.
 * Ground-truth metrics and human verdicts exist on the labelled cases only, a
 * judge's twin of a ground-truth metric and a repeated judge's samples on part
 * of the cases the judge saw.
 */
const EVERY_CASE_COUNT = /^((?:retrieval|response)\/(?:llm_judged|lexical)\/[^/]+|engine)\/[^/]+\/count$/;

/**
 * How many evaluated cases an engine has, read from its statistics in a
 * report (report.json keeps no such count per engine): the largest case count
 * among its metrics, where the count of a metric `<prefix>/<name>` adds
 * `<prefix>/error_count`, the cases whose value an error replaced (a judge's
 * judgment that ended in error, or a live engine's failure). That count is
 * only known when the engine has a metric asked of every one of its cases (a
 * judge's, a live engine's); an engine with ground truth alone is taken to
 * have every evaluated case, `evaluated`, since nothing in the report says
 * otherwise. A value over fewer cases than this was averaged over part of the
 * engine's cases, which the tables say.
 */
export function engineCaseCount(statistics: Readonly<Record<string, number>>, evaluated: number): number {
  let largest = 0;
  let known = false;
  for (const [name, count] of Object.entries(statistics)) {
    if (!name.endsWith(COUNT)) continue;
    known ||= EVERY_CASE_COUNT.test(name);
    const metric = name.slice(0, -COUNT.length);
    const errorName = `${metric.slice(0, metric.lastIndexOf('/'))}/error_count`;
    const errors = Object.hasOwn(statistics, errorName) ? (statistics[errorName] ?? 0) : 0;
    largest = Math.max(largest, count + errors);
  }
  return known ? largest : evaluated;
}
