import { reportRun } from '../../shared/reduce/reduce.js';
import { runCompletion } from '../../shared/run/run-completion.js';
import { runKeys } from '../../shared/run/run-identity.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import type { Report } from '../../shared/schema/report.js';
import type { CaseResult } from '../../shared/schema/run-records.js';
import { manifest, result } from '../unit/report/factories.js';
import { NDCG } from './reported-suite.js';

export const RECIPROCAL_RANK = 'retrieval/ground_truth/reciprocal_rank';
/** First by name, and the same in both runs: the engine the compare page used to open on. */
export const STILL_ENGINE = 'alpha';
/** Moves between the runs: reciprocal rank +0.3194 (significant), ndcg@10 +0.2351 (significant, smaller). */
export const MOVED_ENGINE = 'beta';
/**
 * Twelve queries with ids as long as real ones get (a question turned into a
 * slug, no space to break at), so the page's tables are measured at their
 * widest.
 */
export const MOVED_REQUESTS = Array.from(
  { length: 12 },
  (_, index) => `q${String(index + 1).padStart(2, '0')}-how-do-i-rotate-the-signing-keys-of-a-replicated-cluster-without-downtime`,
);
/** The one query of the moved engine that loses: its relevant document falls from rank 2 to 3. */
export const DROPPED_REQUEST = MOVED_REQUESTS[11] as string;

/**
 * Two runs of `suite` (r-…a1, then r-…b2, or the ids given) whose only change
 * is the moved engine's ranking (the engines' names and the twelve request
 * ids can be given, to try hostile ones; the twelfth is the one dropped):
 * each query has one relevant document, at rank 2 in run A for both engines;
 * in run B the moved engine puts it first for eight queries, keeps it second
 * for three and drops it to third for one. With one relevant document at
 * rank r, reciprocal rank = 1/r and ndcg@10 = 1/log2(r + 1):
 *   reciprocal rank delta = (8 × (1 − 1/2) − (1/2 − 1/3)) / 12 = 3.8333 / 12 = +0.3194
 *   ndcg@10 delta = (8 × (1 − 0.6309) − (0.6309 − 0.5)) / 12 = 2.8216 / 12 = +0.2351
 */
export async function reportMovedEngineRuns(
  store: ObjectStore,
  suite: string,
  names: { still: string; moved: string } = { still: STILL_ENGINE, moved: MOVED_ENGINE },
  options: { requests?: readonly string[]; runIds?: readonly [string, string] } = {},
): Promise<[Report, Report]> {
  const requests = options.requests ?? MOVED_REQUESTS;
  const dropped = requests[11];
  // Queries of the moved engine that keep their rank 2; the other eight rise to rank 1.
  const kept = new Set(requests.slice(8, 11));
  const reports: Report[] = [];
  for (const [runIndex, runId] of (options.runIds ?? ['r-00000000000000a1', 'r-00000000000000b2']).entries()) {
    const createdAt = new Date(Date.UTC(2026, 10, 1 + runIndex, 2)).toISOString();
    const caseIds = [...requests];
    const base = manifest(caseIds, {
      run_id: runId,
      suite,
      created_at: createdAt,
      deadline: createdAt,
      engines: [names.still, names.moved],
    });
    await store.put(runKeys.manifest(runId), JSON.stringify(base));
    await store.put(runKeys.caseIds(runId), JSON.stringify(caseIds));
    for (const requestId of requests) {
      const relevantRanks = { [names.still]: 2, [names.moved]: runIndex === 0 || kept.has(requestId) ? 2 : requestId === dropped ? 3 : 1 };
      await store.put(runKeys.result(runId, requestId), JSON.stringify(caseResult(runId, requestId, relevantRanks)));
    }
    reports.push((await reportRun(store, await runCompletion(store, runId))).report);
  }
  return reports as [Report, Report];
}

function caseResult(runId: string, requestId: string, relevantRanks: Readonly<Record<string, number>>): CaseResult {
  const engines: CaseResult['engines'] = {};
  const outputs: NonNullable<CaseResult['outputs']> = {};
  for (const [engine, relevantRank] of Object.entries(relevantRanks)) {
    engines[engine] = { [RECIPROCAL_RANK]: 1 / relevantRank, [NDCG]: 1 / Math.log2(relevantRank + 1) };
    const documents = Array.from(
      { length: 4 },
      (_, index) =>
        `https://docs.example.com/operations/clusters/replication/signing-keys/rotation-without-downtime/${requestId}/part-${index + 1}`,
    );
    // The relevant document (part 1) moved to its rank, the others in their order around it.
    const others = documents.slice(1);
    const ranked = [...others.slice(0, relevantRank - 1), documents[0] as string, ...others.slice(relevantRank - 1)];
    outputs[engine] = {
      retrieved: ranked.map((document, index) => ({
        doc_uri: document,
        rank: index + 1,
        score: 10 - index,
        ...(document === documents[0] ? { human_grade: 2 } : {}),
      })),
    };
  }
  return { ...result(requestId, engines), run_id: runId, request_id: requestId, outputs };
}
