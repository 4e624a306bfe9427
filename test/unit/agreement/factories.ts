import { buildAgreementReport, type AgreementInputs } from '../../../shared/agreement/agreement-report.js';
import type { AgreementReport } from '../../../shared/schema/agreement.js';
import type { NamedRun } from '../../../shared/agreement/system-agreement.js';
import { DEFAULT_MEASURE_OPTIONS, resolveMeasures, type Measure } from '../../../shared/metrics/registry.js';
import type { Qrels } from '../../../shared/trec/qrels.js';
import { run, type RunLine } from '../trec/factories.js';

export { qrels } from '../trec/factories.js';

/** The one measure a trec_eval name stands for (`P.1`, `map`). */
export function measure(name: string): Measure {
  const resolved = resolveMeasures(name);
  if (!resolved.ok || resolved.value.length !== 1) throw new Error(`Expected one measure for ${name}`);
  return resolved.value[0] as Measure;
}

/** A named run from `[topic, documents best first]`: scores count down so the order is the given one. */
export function namedRun(name: string, topics: readonly (readonly [string, readonly string[]])[]): NamedRun {
  const lines = topics.map(
    ([topicId, documents]) => [topicId, documents.map((documentId, index): RunLine => [documentId, documents.length - index])] as const,
  );
  return { name, run: run(lines, name) };
}

/** The agreement report of two qrels (and runs), with small defaults: P.1, level 1, 200 resamples, seed 0. */
export function reportOf(human: Qrels, judge: Qrels, overrides: Partial<AgreementInputs> = {}): AgreementReport {
  const result = buildAgreementReport({
    human,
    judge,
    runs: [],
    measure: measure('P.1'),
    measureOptions: DEFAULT_MEASURE_OPTIONS,
    resamples: 200,
    seed: 0,
    ...overrides,
  });
  if (!result.ok) throw new Error(result.error);
  return result.value;
}
