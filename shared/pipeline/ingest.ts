import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { loadDataset } from '../dataset/load-dataset.js';
import type { ObjectStore } from '../ports/object-store.js';
import { sendAll, type OutgoingMessage, type WorkQueue } from '../ports/work-queue.js';
import type { EvalCase } from '../schema/eval-case.js';
import type { InputError } from '../schema/input-error.js';
import { MAX_INLINE_MESSAGE_BYTES, type CaseMessage, type CheckMessage } from '../schema/pipeline-messages.js';
import type { Manifest } from '../schema/run-records.js';
import type { RunConfig } from './run-config.js';
import { caseIdFor, configHash, runIdFor, runKeys } from './run-identity.js';

export interface IngestRequest {
  readonly datasetKey: string;
  readonly etag: string;
  readonly suite: string;
  /** What started the run: "upload", "schedule:<date>", "cli"; part of the run id. */
  readonly trigger: string;
  readonly config: RunConfig;
  /** One line about the judge, for the manifest and the report. */
  readonly judgeSummary: string;
}

export interface IngestDependencies {
  readonly store: ObjectStore;
  readonly cases: WorkQueue;
  readonly control: WorkQueue;
  readonly now: () => Date;
}

export type IngestOutcome =
  | { kind: 'started'; runId: string; cases: number; inputErrors: number }
  | { kind: 'duplicate'; runId: string }
  | { kind: 'rejected'; runId: string; error: InputError };

/**
 * Ingest: streams the dataset, validates every row, groups rows into cases,
 * writes the run's manifest (only if absent: a duplicated event starts no
 * second run), its case ids and input errors, sends one message per case
 * (batches of 10; a case too large for a message goes to the store and the
 * message carries its key), and schedules the reducer's first check.
 *
 * Recovery: the manifest claims the run; `ingested.json` marks that every
 * message was sent. An event that finds the claim but no mark (an earlier
 * invocation died half-way) sends the messages again: results have
 * deterministic keys, so repeats overwrite rather than count twice.
 */
export async function ingestDataset(dependencies: IngestDependencies, request: IngestRequest): Promise<IngestOutcome> {
  const { store } = dependencies;
  const hash = configHash(request.config);
  const runId = runIdFor({ datasetKey: request.datasetKey, etag: request.etag, configHash: hash, trigger: request.trigger });
  if ((await store.get(runKeys.ingested(runId))) !== undefined) return { kind: 'duplicate', runId };

  const { cases, errors, rows } = await readCases(store, request.datasetKey, request.config.strict);
  if (request.config.strict && errors.length > 0) return { kind: 'rejected', runId, error: errors[0] as InputError };
  const now = dependencies.now();
  const manifest: Manifest = {
    run_id: runId,
    suite: request.suite,
    dataset: { key: request.datasetKey, etag: request.etag },
    trigger: request.trigger,
    config: request.config as unknown as Record<string, unknown>,
    config_hash: hash,
    created_at: now.toISOString(),
    deadline: new Date(now.getTime() + request.config.run.deadline_seconds * 1000).toISOString(),
    cases: cases.length,
    engines: [...new Set(cases.flatMap((evalCase) => Object.keys(evalCase.engines)))].sort(),
    input_errors: errors.length,
    judge: request.judgeSummary,
  };
  const caseIds = cases.map((evalCase) => caseIdFor(evalCase.request_id));
  await store.put(runKeys.inputErrors(runId), errors.map((error) => `${JSON.stringify(error)}\n`).join(''));
  await store.put(runKeys.caseIds(runId), JSON.stringify(caseIds));
  const claimed = await store.put(runKeys.manifest(runId), JSON.stringify(manifest, null, 2), { ifNoneMatch: true });
  if (!claimed.written && (await store.get(runKeys.ingested(runId))) !== undefined) return { kind: 'duplicate', runId };

  const messages: OutgoingMessage[] = [];
  for (const [index, evalCase] of cases.entries()) {
    messages.push({ id: String(index % 10), body: await caseMessageBody(store, runId, caseIds[index] as string, evalCase) });
  }
  await sendAll(dependencies.cases, messages);
  const check: CheckMessage = { kind: 'check', run_id: runId, attempt: 0 };
  await sendAll(dependencies.control, [{ id: 'check', body: JSON.stringify(check), delaySeconds: request.config.run.check_delay_seconds }]);
  await store.put(runKeys.ingested(runId), JSON.stringify({ run_id: runId, rows, cases: cases.length }));
  return { kind: 'started', runId, cases: cases.length, inputErrors: errors.length };
}

async function caseMessageBody(store: ObjectStore, runId: string, caseId: string, evalCase: EvalCase): Promise<string> {
  const inline: CaseMessage = { kind: 'case', run_id: runId, case_id: caseId, case: evalCase };
  const body = JSON.stringify(inline);
  if (Buffer.byteLength(body) <= MAX_INLINE_MESSAGE_BYTES) return body;
  // Claim check: the case goes to the store, the message carries its key.
  const key = runKeys.claimCheck(runId, caseId);
  await store.put(key, JSON.stringify(evalCase));
  const reference: CaseMessage = { kind: 'case', run_id: runId, case_id: caseId, case_key: key };
  return JSON.stringify(reference);
}

/**
 * Reads the dataset object through a temporary file, so a dataset larger than
 * memory streams through the loader. Cases are held until the file ends: rows
 * of one request may be anywhere in it.
 */
async function readCases(
  store: ObjectStore,
  datasetKey: string,
  strict: boolean,
): Promise<{ cases: EvalCase[]; errors: InputError[]; rows: number }> {
  const folder = await mkdtemp(join(tmpdir(), 'assay-ingest-'));
  try {
    const path = join(folder, basename(datasetKey));
    const found = await store.download(datasetKey, path);
    if (!found) {
      const error: InputError = { file: datasetKey, line: 0, message: 'the dataset object does not exist', fix: 'upload the dataset, then start the run' };
      return { cases: [], errors: [error], rows: 0 };
    }
    const cases: EvalCase[] = [];
    const errors: InputError[] = [];
    let rows = 0;
    for await (const event of loadDataset(path, { strict: false })) {
      if (event.kind === 'case') cases.push(event.case);
      else if (event.kind === 'error') errors.push({ ...event.error, file: datasetKey });
      else rows = event.counts.rows;
      if (strict && errors.length > 0) break;
    }
    return { cases, errors, rows };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
