import { reportRun } from '../../shared/reduce/reduce.js';
import { runCompletion } from '../../shared/run/run-completion.js';
import { runKeys } from '../../shared/run/run-identity.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import type { Report } from '../../shared/schema/report.js';
import type { CaseResult } from '../../shared/schema/run-records.js';
import { manifest, result, usage, type Value } from '../unit/report/factories.js';

export const NDCG = 'retrieval/ground_truth/ndcg@10';
export const CORRECTNESS = 'response/llm_judged/correctness/rating';
const CHUNK_RATINGS = 'retrieval/llm_judged/chunk_relevance/ratings';
const CHUNK_PRECISION = 'retrieval/llm_judged/chunk_relevance/precision';
export const ENGINES = ['bm25', 'dense'] as const;
export const REQUESTS = Array.from({ length: 12 }, (_, index) => `q${String(index + 1).padStart(2, '0')}`);
/** On a degraded night, this query of the degraded engine falls furthest: to an ndcg of 0. */
export const WORST_REQUEST = 'q08';

/** One night of a suite: its run id (`r-` and 16 hex digits), its time, and the engine that got worse that night, if any. */
export interface Night {
  readonly runId: string;
  readonly createdAt: string;
  readonly degraded?: (typeof ENGINES)[number];
}

/** `count` nights a day apart from 2026-11-01, run ids r-000…001 upward; `degraded` maps a night's index to the engine that got worse. */
export function nights(count: number, degraded: Readonly<Record<number, Night['degraded']>> = {}): Night[] {
  return Array.from({ length: count }, (_, index) => ({
    runId: `r-${(index + 1).toString(16).padStart(16, '0')}`,
    createdAt: new Date(Date.UTC(2026, 10, 1 + index, 2)).toISOString(),
    ...(degraded[index] === undefined ? {} : { degraded: degraded[index] }),
  }));
}

/**
 * Reports each night of the suite through the reducer (reportRun: report
 * files, latest.json, the comparison with the run before, the history), in
 * order. Twelve queries × two engines; each query's ndcg@10 is fixed by its
 * position, dense's a little above bm25's, every night a little above the
 * night before; a degraded engine's ndcg halves and WORST_REQUEST's falls to
 * 0, and its ranked list is reversed. Ranked lists carry human grades and
 * chunk_relevance verdicts.
 */
export async function reportNights(store: ObjectStore, suite: string, list: readonly Night[]): Promise<Report[]> {
  const reports: Report[] = [];
  for (const [nightIndex, night] of list.entries()) {
    const caseIds = [...REQUESTS];
    const base = manifest(caseIds, {
      run_id: night.runId,
      suite,
      created_at: night.createdAt,
      deadline: night.createdAt,
      engines: [...ENGINES],
      config_hash: `hash-${nightIndex % 2}`,
    });
    await store.put(runKeys.manifest(night.runId), JSON.stringify(base));
    await store.put(runKeys.caseIds(night.runId), JSON.stringify(caseIds));
    for (const [index, requestId] of REQUESTS.entries()) {
      await store.put(runKeys.result(night.runId, requestId), JSON.stringify(caseResult(night, nightIndex, index, requestId)));
    }
    reports.push((await reportRun(store, await runCompletion(store, night.runId))).report);
  }
  return reports;
}

function caseResult(night: Night, nightIndex: number, index: number, requestId: string): CaseResult {
  const engines: Record<string, Record<string, Value>> = {};
  const outputs: NonNullable<CaseResult['outputs']> = {};
  for (const [engineIndex, engine] of ENGINES.entries()) {
    const degraded = night.degraded === engine;
    const healthy = 0.3 + 0.04 * index + 0.1 * engineIndex + 0.002 * nightIndex;
    const ndcg = degraded ? (requestId === WORST_REQUEST ? 0 : healthy / 2) : healthy;
    const documents = Array.from({ length: 5 }, (_, rank) => `doc-${requestId}-${rank + 1}`);
    const ranked = degraded ? [...documents].reverse() : documents;
    // The judge agrees with the human grades but on every third query's third document, so its kappa is defined and below 1.
    const ratings = ranked.map((document) =>
      document.endsWith('-1') || document.endsWith('-2') || (document.endsWith('-3') && index % 3 === 0) ? 'yes' : 'no',
    );
    engines[engine] = {
      [NDCG]: ndcg,
      [CORRECTNESS]: (index + engineIndex) % 4 === 0 ? 'no' : 'yes',
      [CHUNK_RATINGS]: ratings,
      [CHUNK_PRECISION]: ratings.filter((rating) => rating === 'yes').length / ratings.length,
    };
    outputs[engine] = {
      retrieved: ranked.map((document, rank) => ({
        doc_uri: document,
        rank: rank + 1,
        score: 10 - rank,
        ...(document.endsWith('-1')
          ? { human_grade: 2 }
          : document.endsWith('-2')
            ? { human_grade: 1 }
            : document.endsWith('-3')
              ? { human_grade: 0 }
              : {}),
      })),
    };
  }
  const judged = result(requestId, engines, { correctness: usage({ calls: 2, input_tokens: 300, output_tokens: 40 }) });
  return { ...judged, run_id: night.runId, request_id: requestId, outputs };
}
