import type { ObjectStore } from '../ports/object-store.js';
import type { Manifest } from '../schema/run-records.js';
import { manifestSchema } from '../schema/run-records.js';
import { reportSchema, type Report } from '../schema/report.js';
import { runKeys } from '../run/run-identity.js';

export interface RunStatus {
  readonly runId: string;
  /** Undefined while ingest has not claimed the run yet (or the id is wrong). */
  readonly manifest: Manifest | undefined;
  /** Ingest has sent every case message. */
  readonly ingested: boolean;
  readonly results: number;
  readonly failures: number;
  /** The report.json key once the reducer has written it. */
  readonly report: string | undefined;
  /** The report.json of a reported run. */
  readonly reported: Report | undefined;
}

/**
 * Where a run stands, read from the store alone: no queue access needed. A
 * reported run's counts come from its report.json; a run still going lists
 * its results and failures (a run of a million cases lists a thousand pages).
 */
export async function runStatus(store: ObjectStore, runId: string): Promise<RunStatus> {
  const manifestBytes = await store.get(runKeys.manifest(runId));
  const manifest = manifestBytes === undefined ? undefined : manifestSchema.parse(JSON.parse(new TextDecoder().decode(manifestBytes)));
  const reportKey = manifest === undefined ? undefined : runKeys.report(manifest.suite, runId, 'report.json');
  const reportBytes = reportKey === undefined ? undefined : await store.get(reportKey);
  const ingested = (await store.get(runKeys.ingested(runId))) !== undefined;
  if (reportKey !== undefined && reportBytes !== undefined) {
    const reported = reportSchema.parse(JSON.parse(new TextDecoder().decode(reportBytes)));
    return { runId, manifest, ingested, results: reported.cases.evaluated, failures: reported.cases.failed, report: reportKey, reported };
  }
  const count = async (prefix: string) => {
    let total = 0;
    for await (const _key of store.list(prefix)) total++;
    return total;
  };
  return { runId, manifest, ingested, results: await count(runKeys.resultsPrefix(runId)), failures: await count(runKeys.failuresPrefix(runId)), report: undefined, reported: undefined };
}

export function describeStatus(status: RunStatus): string {
  if (status.manifest === undefined) return `run ${status.runId}: not started yet (no manifest)`;
  const { manifest } = status;
  const pending = Math.max(0, manifest.cases - status.results - status.failures);
  const stage = status.report !== undefined ? `reported: ${status.report}` : status.ingested ? 'judging' : 'ingesting';
  return `run ${status.runId} (suite ${manifest.suite}, ${manifest.dataset.key}): ${manifest.cases} cases, ${status.results} evaluated, ${status.failures} failed, ${pending} pending; ${stage}`;
}
