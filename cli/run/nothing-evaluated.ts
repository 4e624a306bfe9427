import { runKeys } from '../../shared/run/run-identity.js';
import { isCollectionManifestKey } from '../../shared/schema/collection-manifest.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import { formatInputError, inputErrorSchema } from '../../shared/schema/input-error.js';
import { parseJsonWith } from '../../shared/schema/parse-json-with.js';
import { caseLineSchema, type Report } from '../../shared/schema/report.js';
import { addUsages } from '../../shared/scoring/judge-usage-tally.js';

/**
 * Why a finished run evaluated nothing, or undefined when it evaluated
 * something. A run evaluates nothing when the dataset has no valid row (a
 * TREC collection: no valid run line), when
 * every case failed, or when every judge call it made failed and no cache hit
 * answered instead (a refused key above all: then every call is refused).
 * Judgments shared with a call in flight are that call's, so the counts are
 * the calls and cache hits. `locate` turns a store key into
 * where the user finds the object (a path, or an s3:// address).
 */
export async function nothingEvaluated(report: Report, store: ObjectStore, locate: (key: string) => string): Promise<string | undefined> {
  if (report.cases.total === 0) return noCase(report, store, locate);
  // Cases and no engine: a TREC collection without run lines (its topics come from the qrels), or a dataset of queries alone.
  if (Object.keys(report.engines).length === 0) {
    if (!isCollectionManifestKey(report.dataset)) {
      return (
        `no engine to evaluate: the rows of ${report.dataset} name no engine, and give no retrieved context and no response ` +
        '(queries alone); give each row the engine, the context it retrieved and its response, or ask live engines for them: ' +
        'engines in the config (docs/engines.md)'
      );
    }
    if (report.input_errors === 0) return `no run to evaluate: the run files of ${report.dataset} have no lines`;
    return noCase(report, store, locate, 'no run to evaluate: no run line');
  }
  if (report.cases.evaluated === 0) {
    const first = report.failed_cases[0];
    const counts = `${report.cases.failed} failed, ${report.cases.missing} missing`;
    return `no case could be evaluated (${counts})${first === undefined ? '' : `; the first failure, ${first.case_id}: ${first.error}`}`;
  }
  // Judge usage holds the failed calls of earlier deliveries too: a recovery answered from the cache has those and no
  // successful call, so the judgments that did not fail are the calls and the cache hits beyond the errors.
  const { calls, cache_hits: cacheHits, errors } = addUsages(Object.values(report.judges));
  const judgments = calls + cacheHits;
  if (judgments === 0 || errors < judgments) return undefined;
  const firstError = await firstJudgeError(store, runKeys.report(report.suite, report.run_id, 'cases.jsonl'));
  const what =
    cacheHits === 0
      ? `every judge call failed (${errors} of ${calls})`
      : `every judgment failed (${errors} of ${judgments}: ${calls} judge calls and ${cacheHits} cache hits)`;
  return `${what}${firstError === undefined ? '' : `; the first: ${firstError}`}`;
}

async function noCase(
  report: Report,
  store: ObjectStore,
  locate: (key: string) => string,
  nothing = 'no case to evaluate: no row',
): Promise<string> {
  const key = runKeys.inputErrors(report.run_id);
  if (report.input_errors === 0)
    return `no case to evaluate: ${report.dataset} has no rows; expected one row per query (JSONL, a JSON array or CSV)`;
  const bytes = await store.get(key);
  const firstLine = bytes === undefined ? undefined : new TextDecoder().decode(bytes).split('\n', 1)[0];
  const first = firstLine === undefined ? undefined : parseJsonWith(inputErrorSchema, firstLine);
  const errors = `${report.input_errors} input ${report.input_errors === 1 ? 'error' : 'errors'}`;
  const example = first?.ok === true ? `; the first: ${formatInputError(first.value)}` : '';
  return `${nothing} of ${report.dataset} is valid (${errors}${example}); every input error is in ${locate(key)}`;
}

/** The first judge error_message of the run's cases.jsonl: every judge error of the run is one of these. */
async function firstJudgeError(store: ObjectStore, key: string): Promise<string | undefined> {
  const bytes = await store.get(key);
  if (bytes === undefined) return undefined;
  for (const line of new TextDecoder().decode(bytes).split('\n')) {
    const parsed = parseJsonWith(caseLineSchema, line);
    const metrics = parsed.ok ? parsed.value.metrics : {};
    const error = Object.entries(metrics).find(([name, value]) => name.endsWith('/error_message') && typeof value === 'string');
    if (error !== undefined) return error[1] as string;
  }
  return undefined;
}
