import { runWaitSeconds } from '../judge-client/batch-settings.js';
import { createReadStream, createWriteStream } from 'node:fs';
import { appendFile, mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import type { ObjectStore } from '../ports/object-store.js';
import { MAX_BATCH_MESSAGES, sendAll, type OutgoingMessage, type WorkQueue } from '../ports/work-queue.js';
import type { EvalCase } from '../schema/eval-case.js';
import type { InputError } from '../schema/input-error.js';
import { MAX_INLINE_MESSAGE_BYTES, type CaseMessage, type CheckMessage, type ContinueIngestMessage } from '../schema/pipeline-messages.js';
import type { Manifest } from '../schema/run-records.js';
import { INLINE_CHUNK_LIMIT, storedCaseText } from '../schema/stored-case.js';
import type { SerializedCase } from '../rows/dataset-events.js';
import { deserializedCase } from '../trec-collection/trec-partition-cases.js';
import type { CollectionWork } from '../trec-collection/trec-collection-work.js';
import type { RunConfig } from '../config/index.js';
import { datasetEvents } from './dataset-source.js';
import { liveEngineNames } from './live-engine-names.js';
import { caseIdFor, runIdentityOf, runKeys } from '../run/run-identity.js';
import { canaryCaseId, canaryDatasetKey } from '../run/canary-keys.js';
import { formatInputError } from '../schema/input-error.js';
import { createWorkFolder, DEFAULT_WORK_FOLDERS, removeStaleWorkFolders, type WorkFolderSettings } from '../run/work-folders.js';
import { FileWriter } from '../ports/file-writer.js';

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
  /**
   * Milliseconds left in this invocation (Lambda's getRemainingTimeInMillis);
   * absent where there is no limit. Sending stops at a checkpoint when time
   * runs short, and a continue-ingest message on the control queue resumes it.
   */
  readonly timeRemainingMs?: () => number;
  /** Where the local scratch folders go, and when a dead process's leftovers are removed; DEFAULT_WORK_FOLDERS if absent. */
  readonly workFolders?: WorkFolderSettings;
  /** Where a TREC collection's heavy loading steps run: in this thread by default, or on worker threads (the embedded CLI). */
  readonly collectionWork?: CollectionWork;
}

export type IngestOutcome =
  /** `canaryCases`: the canary set's cases, sent beside the run's own `cases`; present for a run with one (config `canaries:`). */
  | { kind: 'started'; runId: string; cases: number; inputErrors: number; canaryCases?: number }
  | { kind: 'duplicate'; runId: string }
  | { kind: 'rejected'; runId: string; error: InputError };

/**
 * Ingest: streams the dataset, validates every row, groups rows into cases
 * (through spill files, so memory stays bounded for any number of rows),
 * writes the run's manifest (only if absent: a duplicated event starts no
 * second run), its case ids and input errors, sends one message per case
 * (batches of 10; a case too large for a message goes to the store and the
 * message carries its key), and schedules the reducer's first check.
 *
 * A run too large to send in one invocation stops at a checkpoint: the rest
 * of its messages wait in the store and a continue-ingest message on the
 * control queue resumes the sending (sendMessagesFrom). Reading and grouping
 * the dataset happen in the first invocation: about 11,000 rows a second here,
 * so on Lambda's 15 minutes a dataset of some millions of rows.
 *
 * Recovery: the manifest claims the run; `ingested.json` marks that every
 * message was sent. An event that finds the claim but no mark (an earlier
 * invocation died half-way) sends the messages again: results have
 * deterministic keys, so repeats overwrite rather than count twice.
 */
export async function ingestDataset(dependencies: IngestDependencies, request: IngestRequest): Promise<IngestOutcome> {
  const { store } = dependencies;
  const { runId, configHash: hash } = runIdentityOf(request);
  if ((await store.get(runKeys.ingested(runId))) !== undefined) return { kind: 'duplicate', runId };

  const folder = await startWorkFolder(dependencies, 'ingest');
  try {
    const options = spoolOptionsOf(request.config);
    const spooled = await spoolCases(
      store,
      runId,
      request.datasetKey,
      folder,
      dependencies.collectionWork === undefined ? options : { ...options, collectionWork: dependencies.collectionWork },
    );
    if (request.config.strict && spooled.firstError !== undefined) return { kind: 'rejected', runId, error: spooled.firstError };
    const canary = await spoolCanary(store, runId, request.suite, request.config, folder);
    const now = dependencies.now();
    const manifest: Manifest = {
      run_id: runId,
      suite: request.suite,
      dataset: { key: request.datasetKey, etag: request.etag },
      trigger: request.trigger,
      config: request.config,
      config_hash: hash,
      created_at: now.toISOString(),
      deadline: new Date(now.getTime() + runWaitSeconds(request.config) * 1000).toISOString(),
      cases: spooled.cases,
      engines: [...new Set([...spooled.engines, ...liveEngineNames(request.config.engines)])].sort(),
      input_errors: spooled.errorCount,
      ...(spooled.firstError === undefined ? {} : { first_input_error: formatInputError(spooled.firstError) }),
      judge: request.judgeSummary,
      ...(canary === undefined ? {} : { canary: canary.manifest }),
    };
    await store.upload(runKeys.inputErrors(runId), spooled.errorsPath, { etag: false });
    await store.upload(runKeys.caseIds(runId), spooled.caseIdsPath, { etag: false });
    if (canary !== undefined) {
      await store.upload(runKeys.canaryCaseIds(runId), canary.caseIdsPath, { etag: false });
      // The canary's messages go out after the run's own.
      await appendFile(spooled.messagesPath, await readFile(canary.messagesPath));
    }
    const claimed = await store.put(runKeys.manifest(runId), JSON.stringify(manifest, null, 2), { ifNoneMatch: true });
    if (!claimed.written && (await store.get(runKeys.ingested(runId))) !== undefined) return { kind: 'duplicate', runId };

    const outcome: IngestOutcome = {
      kind: 'started',
      runId,
      cases: spooled.cases,
      inputErrors: spooled.errorCount,
      ...(canary === undefined ? {} : { canaryCases: canary.manifest.cases }),
    };
    const finish = { runId, rows: spooled.rows, cases: spooled.cases, checkDelaySeconds: request.config.run.check_delay_seconds };
    await sendMessagesFrom(dependencies, spooled.messagesPath, folder, finish);
    return outcome;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

export interface SpooledCases {
  readonly cases: number;
  /** The case ids as a JSON array, written as the cases come. */
  readonly caseIdsPath: string;
  readonly engines: Set<string>;
  readonly rows: number;
  readonly errorCount: number;
  readonly firstError: InputError | undefined;
  /** Input errors, one JSON object a line. */
  readonly errorsPath: string;
  /** Case message bodies, one a line, ready to send. */
  readonly messagesPath: string;
}

export interface SpoolOptions {
  readonly strict: boolean;
  /** The run's judge depth: a TREC collection's cases carry the corpus text of each engine's top chunks this deep. */
  readonly contentDepth: number;
  /** Where a TREC collection's heavy loading steps run (IngestDependencies.collectionWork). */
  readonly collectionWork?: CollectionWork;
  /** The cases are a canary set's: each id behind `canary~`, each message marked `canary` (shared/run/canary-keys.ts). */
  readonly canary?: true;
}

/** The spool options of a run config. */
export function spoolOptionsOf(config: Pick<RunConfig, 'strict' | 'run'>): SpoolOptions {
  return { strict: config.strict, contentDepth: config.run.judge_depth };
}

/** Claim checks stored at once while cases are spooled: the writes overlap, where one after another the loading thread mostly waits. */
const CLAIM_CHECKS_AT_ONCE = 8;

/**
 * Reads the dataset object (or TREC collection) through a local file and the loader's spill files,
 * writing the input errors, the case ids and the case messages to local
 * files as it goes: memory stays bounded by a spill partition, whatever the
 * size of the dataset.
 */
export async function spoolCases(
  store: ObjectStore,
  runId: string,
  datasetKey: string,
  folder: string,
  options: SpoolOptions,
): Promise<SpooledCases> {
  const { strict } = options;
  const errorsPath = join(folder, 'input-errors.jsonl');
  const messagesPath = join(folder, 'messages.jsonl');
  const caseIdsPath = join(folder, 'case-ids.json');
  const errors = new FileWriter(errorsPath);
  const messages = new FileWriter(messagesPath);
  const caseIds = new FileWriter(caseIdsPath);
  const spooled = {
    cases: 0,
    caseIdsPath,
    engines: new Set<string>(),
    rows: 0,
    errorCount: 0,
    firstError: undefined as InputError | undefined,
    errorsPath,
    messagesPath,
  };
  const writeError = async (error: InputError): Promise<void> => {
    spooled.errorCount++;
    spooled.firstError ??= error;
    await writeLine(errors, JSON.stringify(error));
  };
  // Message bodies in the making, in case order: a few claim checks are stored at once, and their messages spooled in order.
  const bodies: Promise<string>[] = [];
  const spoolFirst = async (): Promise<void> => writeLine(messages, await (bodies.shift() as Promise<string>));
  let spooling: unknown;
  try {
    for await (const event of datasetEvents(store, datasetKey, folder, {
      contentDepth: options.contentDepth,
      ...(options.collectionWork === undefined ? {} : { collectionWork: options.collectionWork }),
    })) {
      if (event.kind === 'error') await writeError(event.error);
      else if (event.kind === 'end') spooled.rows = event.counts.rows;
      else {
        // A case serialized on a worker thread is sent as its text, without building its objects here.
        const { serialized } = event;
        const ownId = caseIdFor(serialized?.requestId ?? event.case.request_id);
        const caseId = options.canary === true ? canaryCaseId(ownId) : ownId;
        await caseIds.write(`${spooled.cases === 0 ? '[' : ','}${JSON.stringify(caseId)}`);
        spooled.cases++;
        for (const engine of serialized?.engines ?? Object.keys(event.case.engines)) spooled.engines.add(engine);
        const made =
          serialized === undefined
            ? caseMessageBody(store, runId, caseId, event.case)
            : serializedMessageBody(store, runId, caseId, serialized);
        const body = options.canary === true ? made.then(canaryMessageBody) : made;
        // Awaited in turn below; one that fails meanwhile must not count as unhandled.
        body.catch(() => {});
        bodies.push(body);
        if (bodies.length >= CLAIM_CHECKS_AT_ONCE) await spoolFirst();
      }
      if (strict && spooled.errorCount > 0) break;
    }
    while (bodies.length > 0) await spoolFirst();
  } catch (error) {
    spooling = error;
  }
  // Every file closed, also after a failure; then the first error thrown: the spooling's, or a file's.
  const closed = await Promise.allSettled([
    caseIds.write(spooled.cases === 0 ? '[]' : ']').then(() => caseIds.close()),
    errors.close(),
    messages.close(),
  ]);
  if (spooling !== undefined) throw spooling;
  const failed = closed.find((outcome) => outcome.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
  return spooled;
}

/** The canary set as ingest spooled it: what the manifest says of it, its case ids and its messages (local files). */
export interface SpooledCanary {
  readonly manifest: NonNullable<Manifest['canary']>;
  readonly caseIdsPath: string;
  readonly messagesPath: string;
}

/**
 * The run's canary set (config `canaries:`), read from `canaries/<suite>/<file>`
 * as a dataset is (never strictly: a bad canary row is counted, and stops no
 * run), its cases marked as the canary's; undefined for a run without one. A
 * canary set missing from the store has no case, and its first input error
 * says so, for the report.
 */
export async function spoolCanary(
  store: ObjectStore,
  runId: string,
  suite: string,
  config: RunConfig,
  folder: string,
): Promise<SpooledCanary | undefined> {
  if (config.canaries === undefined) return undefined;
  const key = canaryDatasetKey(suite, config.canaries.dataset);
  const canaryFolder = join(folder, 'canary');
  await mkdir(canaryFolder, { recursive: true });
  const spooled = await spoolCases(store, runId, key, canaryFolder, { strict: false, contentDepth: config.run.judge_depth, canary: true });
  const first = spooled.firstError === undefined ? {} : { first_input_error: formatInputError(spooled.firstError) };
  return {
    manifest: { key, cases: spooled.cases, input_errors: spooled.errorCount, ...first },
    caseIdsPath: spooled.caseIdsPath,
    messagesPath: spooled.messagesPath,
  };
}

async function writeLine(file: FileWriter, line: string): Promise<void> {
  await file.write(`${line}\n`);
}

/** What to do once every case message is sent: the first completion check, then the ingested mark. */
export interface IngestFinish {
  readonly runId: string;
  readonly rows: number;
  readonly cases: number;
  readonly checkDelaySeconds: number;
}

/** Stop sending when less than this is left of the invocation, leaving room to write the checkpoint. */
const CHECKPOINT_MARGIN_MS = 60_000;

/**
 * Sends the spooled message bodies in batches of 10, reading the spool file
 * line by line. When the invocation's time runs short, the unsent rest of the
 * spool goes to the store and a continue-ingest message on the control queue
 * carries its key, so the next invocation resumes where this one stopped;
 * otherwise it finishes the ingest (first check, ingested mark).
 */
export async function sendMessagesFrom(
  dependencies: IngestDependencies,
  messagesPath: string,
  folder: string,
  finish: IngestFinish,
): Promise<void> {
  let batch: OutgoingMessage[] = [];
  let offset = 0;
  const lines = createInterface({ input: createReadStream(messagesPath), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const body of lines) {
    if (body !== '') {
      batch.push({ id: String(batch.length), body });
      if (batch.length === MAX_BATCH_MESSAGES) {
        await sendAll(dependencies.cases, batch);
        batch = [];
      }
    }
    offset += Buffer.byteLength(body) + 1;
    if (batch.length === 0 && (dependencies.timeRemainingMs?.() ?? Number.POSITIVE_INFINITY) < CHECKPOINT_MARGIN_MS) {
      lines.close();
      await checkpoint(dependencies, messagesPath, offset, folder, finish);
      return;
    }
  }
  if (batch.length > 0) await sendAll(dependencies.cases, batch);
  const check: CheckMessage = { kind: 'check', run_id: finish.runId, attempt: 0 };
  await sendAll(dependencies.control, [{ id: 'check', body: JSON.stringify(check), delaySeconds: finish.checkDelaySeconds }]);
  await dependencies.store.put(
    runKeys.ingested(finish.runId),
    JSON.stringify({ run_id: finish.runId, rows: finish.rows, cases: finish.cases }),
  );
}

async function checkpoint(
  dependencies: IngestDependencies,
  messagesPath: string,
  offset: number,
  folder: string,
  finish: IngestFinish,
): Promise<void> {
  const rest = join(folder, `rest-${offset}.jsonl`);
  await pipeline(createReadStream(messagesPath, { start: offset }), createWriteStream(rest));
  const key = runKeys.pendingMessages(finish.runId, offset);
  await dependencies.store.upload(key, rest, { etag: false });
  const message: ContinueIngestMessage = {
    kind: 'continue-ingest',
    run_id: finish.runId,
    messages_key: key,
    finish: { rows: finish.rows, cases: finish.cases, check_delay_seconds: finish.checkDelaySeconds },
  };
  await sendAll(dependencies.control, [{ id: 'continue', body: JSON.stringify(message) }]);
}

/** Resumes sending from a checkpoint (the continue-ingest message of the control queue). */
export async function continueIngest(dependencies: IngestDependencies, message: ContinueIngestMessage): Promise<void> {
  const folder = await startWorkFolder(dependencies, 'ingest-continue');
  try {
    const path = join(folder, 'messages.jsonl');
    if (!(await dependencies.store.download(message.messages_key, path)))
      throw new Error(`The checkpoint ${message.messages_key} is missing`);
    const finish = {
      runId: message.run_id,
      rows: message.finish.rows,
      cases: message.finish.cases,
      checkDelaySeconds: message.finish.check_delay_seconds,
    };
    await sendMessagesFrom(dependencies, path, folder, finish);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** A scratch folder for this invocation, after clearing what killed invocations left behind. */
export async function startWorkFolder(dependencies: Pick<IngestDependencies, 'workFolders'>, purpose: string): Promise<string> {
  const settings = dependencies.workFolders ?? DEFAULT_WORK_FOLDERS;
  await removeStaleWorkFolders(settings);
  return createWorkFolder(settings, purpose);
}

/** A canary case's message: the message of the case, marked. */
function canaryMessageBody(body: string): string {
  const message: CaseMessage = { ...(JSON.parse(body) as CaseMessage), canary: true };
  return JSON.stringify(message);
}

/** The message of a case: the case itself when it fits in a message, else a claim check (the case stored, the message carries its key). */
async function caseMessageBody(store: ObjectStore, runId: string, caseId: string, evalCase: EvalCase): Promise<string> {
  let chunks = 0;
  for (const output of Object.values(evalCase.engines)) chunks += output.retrieved_context.length;
  const body = chunks <= INLINE_CHUNK_LIMIT ? inlineBody(runId, caseId, JSON.stringify(evalCase)) : undefined;
  return body ?? (await claimCheck(store, runId, caseId, storedCaseText(evalCase)));
}

/** The same for a case built and serialized on another thread: its text goes into the message or the store as it is. */
async function serializedMessageBody(store: ObjectStore, runId: string, caseId: string, serialized: SerializedCase): Promise<string> {
  if (serialized.form === 'stored') return claimCheck(store, runId, caseId, serialized.text);
  return (
    inlineBody(runId, caseId, serialized.text) ?? (await claimCheck(store, runId, caseId, storedCaseText(deserializedCase(serialized))))
  );
}

function inlineBody(runId: string, caseId: string, caseJson: string): string | undefined {
  const body = `{"kind":"case","run_id":${JSON.stringify(runId)},"case_id":${JSON.stringify(caseId)},"case":${caseJson}}`;
  return Buffer.byteLength(body) <= MAX_INLINE_MESSAGE_BYTES ? body : undefined;
}

async function claimCheck(store: ObjectStore, runId: string, caseId: string, storedText: string | Uint8Array): Promise<string> {
  const key = runKeys.claimCheck(runId, caseId);
  await store.put(key, storedText);
  const reference: CaseMessage = { kind: 'case', run_id: runId, case_id: caseId, case_key: key };
  return JSON.stringify(reference);
}
