import { runKeys } from '../../shared/run/run-identity.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import { seededRandom } from '../../shared/statistics/seeded-random.js';
import type { CaseFailure, CaseResult, Manifest } from '../../shared/schema/run-records.js';
import { failure, manifest, result, usage, type Value } from '../unit/report/factories.js';

export interface SyntheticRun {
  readonly manifest: Manifest;
  readonly caseIds: string[];
  readonly results: CaseResult[];
  readonly failures: CaseFailure[];
}

/**
 * A run of `count` cases with varied records, from a seed: numeric metrics
 * with values that do not add up exactly in floating point, yes/no and
 * numeric ratings, error messages, an engine that only some cases have,
 * failures (some superseded by a result), missing cases and judge usage,
 * and bm25's ranked list with human grades that chunk_relevance's ratings
 * can be set against.
 * Written to the store under the run's keys unless `store` is left out.
 */
export async function syntheticRun(count: number, store?: ObjectStore, seed = 7): Promise<SyntheticRun> {
  const random = seededRandom(seed);
  const fraction = (): number => random.nextUint32() / 2 ** 32;
  // Ids in an order that is not the sorted one, as ingest lists them.
  const caseIds = Array.from({ length: count }, (_, index) => `case-${(index * 7919) % count}-${index % 3}`);
  const results: CaseResult[] = [];
  const failures: CaseFailure[] = [];
  for (const [index, caseId] of caseIds.entries()) {
    const kind = index % 50;
    if (kind === 1 || kind === 2) failures.push(failure(caseId, `timed out ${index}`));
    if (kind === 1 || kind === 3) continue;
    const bm25: Record<string, Value> = {
      'retrieval/ground_truth/ndcg@10': fraction() / 3,
      'retrieval/ground_truth/precision': kind === 4 ? null : fraction(),
      'response/llm_judged/correctness/rating': kind === 5 ? 'unknown' : fraction() < 0.4 ? 'yes' : 'no',
      'response/llm_judged/correctness/rationale': `because ${index}`,
      'response/llm_judged/correctness/error_message': kind === 6 ? 'unparseable verdict' : null,
      'retrieval/llm_judged/chunk_relevance/ratings': ['yes', 'no'],
    };
    const engines: Record<string, Record<string, Value>> = { bm25 };
    if (index % 3 !== 0)
      engines.dense = { 'retrieval/ground_truth/ndcg@10': fraction(), 'response/llm_judged/groundedness/rating': 1 + random.nextBelow(5) };
    const judged = result(caseId, engines, {
      correctness: usage({ calls: 1, input_tokens: 100 + random.nextBelow(50), output_tokens: 20 }),
    });
    // bm25's two judged documents, with human grades from the index (not the seeded draws, which the values above keep): d2 unlabelled in every fourth case.
    const retrieved = [
      { doc_uri: 'd1', rank: 1, human_grade: index % 3 },
      { doc_uri: 'd2', rank: 2, ...(index % 4 === 0 ? {} : { human_grade: (index >> 1) % 2 }) },
    ];
    results.push({ ...judged, outputs: { bm25: { retrieved } } });
  }
  const run = { manifest: manifest(caseIds), caseIds, results, failures };
  if (store !== undefined) await storeRun(store, run);
  return run;
}

export async function storeRun(store: ObjectStore, run: SyntheticRun): Promise<void> {
  const runId = run.manifest.run_id;
  await store.put(runKeys.manifest(runId), JSON.stringify(run.manifest));
  await store.put(runKeys.caseIds(runId), JSON.stringify(run.caseIds));
  for (const record of run.results) await store.put(runKeys.result(runId, record.case_id), JSON.stringify(record));
  for (const record of run.failures) await store.put(runKeys.failure(runId, record.case_id), JSON.stringify(record));
}
