import type { BatchProvider } from '../batch-providers/batch-provider.js';
import { batchKeys, type BatchRequest } from '../schema/batch-request.js';
import type { ObjectStore } from '../ports/object-store.js';
import { compareText } from '../report/ordering.js';
import { scrubSecrets } from '../secrets/scrub-secrets.js';
import type { BatchState, JobRecord } from './batch-state.js';
import { writeBatchState } from './batch-state.js';
import { jobRequestsText, type OwedRequest } from './job-collection.js';

export { collectJob } from './job-collection.js';

/**
 * Looks at a job finished by its state whose files the provider does not
 * name yet, before its lines are read as not run and sent again: a provider
 * may name a finished job's output a little later.
 */
const LOOKS_FOR_FILES = 5;

/** A job of a round, before it is recorded: its input lines, the ids of its requests in the same order, its model. */
export interface PlannedJob {
  readonly lines: string[];
  readonly ids: string[];
  /** Its requests in the same order, with the judge and the priced model of each. */
  readonly requests: OwedRequest[];
  /** The model its requests ask (on Azure OpenAI, the deployment): a provider that names the model per job (Bedrock) creates the job for it. */
  readonly model: string;
}

/**
 * The round's requests in jobs: one model a job (a batch holds requests of
 * one model), each within the provider's limits and the config's
 * `max_requests_per_job`, in model and request id order, so the same
 * requests make the same jobs.
 */
export function planJobs(requests: readonly BatchRequest[], provider: BatchProvider, maxRequestsPerJob: number | undefined): PlannedJob[] {
  const maxRequests = Math.min(provider.limits.maxRequests, maxRequestsPerJob ?? Number.POSITIVE_INFINITY);
  const ordered = [...requests].sort((left, right) =>
    compareText(`${modelOf(left)}\u0000${left.id}`, `${modelOf(right)}\u0000${right.id}`),
  );
  const jobs: { lines: string[]; ids: string[]; requests: OwedRequest[]; bytes: number; model: string }[] = [];
  for (const request of ordered) {
    const line = provider.line(request);
    const bytes = Buffer.byteLength(line) + 1;
    if (bytes > provider.limits.maxBytes)
      throw new Error(
        `A judge request of ${bytes} bytes is larger than a whole batch job of ${provider.name} may be (${provider.limits.maxBytes} bytes)`,
      );
    let last = jobs.at(-1);
    if (
      last === undefined ||
      last.model !== modelOf(request) ||
      last.ids.length >= maxRequests ||
      last.bytes + bytes > provider.limits.maxBytes
    ) {
      last = { lines: [], ids: [], requests: [], bytes: 0, model: modelOf(request) };
      jobs.push(last);
    }
    last.lines.push(line);
    last.ids.push(request.id);
    last.requests.push({ id: request.id, judge: request.judge, model: request.model });
    last.bytes += bytes;
  }
  return jobs.map(({ lines, ids, requests, model }) => ({ lines, ids, requests, model }));
}

/** The model a request's body names (on Azure OpenAI, the deployment); a body without one (Bedrock's Converse) asks the request's model. */
function modelOf(request: BatchRequest): string {
  return typeof request.body.model === 'string' ? request.body.model : request.model;
}

/**
 * Records each planned job (its input, its request ids, its record in the
 * state), then creates it at the provider, or finds it there when an earlier
 * process created it and died before recording its id. Returns the state
 * with every job created.
 */
export async function submitJobs(
  store: ObjectStore,
  provider: BatchProvider,
  runId: string,
  state: BatchState,
  planned: readonly PlannedJob[],
  now: () => Date,
  /** The cost estimated for each planned job, under run.max_judge_cost. */
  estimates?: readonly number[],
): Promise<BatchState> {
  const inRound = state.jobs.filter((job) => job.round === state.round).length;
  let current: BatchState = state;
  for (const [index, job] of planned.entries()) {
    const key = `${runId}-r${state.round}-j${inRound + index}`;
    await store.put(batchKeys.jobInput(runId, key), `${job.lines.join('\n')}\n`);
    await store.put(batchKeys.jobRequests(runId, key), jobRequestsText(job.requests));
    const estimate = estimates?.[index];
    const record: JobRecord = {
      key,
      round: state.round,
      requests: job.ids.length,
      model: job.model,
      state: 'planned',
      phase: 'planned',
      collected: false,
      ...(estimate === undefined ? {} : { estimated_cost: estimate }),
    };
    current = { ...current, jobs: [...current.jobs, record] };
  }
  await writeBatchState(store, runId, current);
  return createPlanned(store, provider, runId, current, now);
}

/** Creates the jobs recorded but not yet at the provider (a process may have died in between). */
export async function createPlanned(
  store: ObjectStore,
  provider: BatchProvider,
  runId: string,
  state: BatchState,
  now: () => Date,
): Promise<BatchState> {
  let current = state;
  for (const job of state.jobs.filter((candidate) => candidate.provider_id === undefined)) {
    const input = await store.get(batchKeys.jobInput(runId, job.key));
    if (input === undefined) throw new Error(`The input of batch job ${job.key} is missing from the store`);
    // A job recorded before records named its model was an OpenAI or Azure OpenAI job, whose lines name it: those adapters take it from there.
    const target = { runId, model: job.model ?? '' };
    const created = (await provider.find(job.key)) ?? (await provider.create(job.key, new TextDecoder().decode(input), target));
    // The window is kept from the start: a provider that never answers a look again is waited for until then at most.
    const expires =
      created.expiresAt === undefined || Number.isNaN(created.expiresAt.getTime()) ? {} : { expires_at: created.expiresAt.toISOString() };
    current = replaceJob(current, {
      ...job,
      provider_id: created.id,
      state: 'submitted',
      phase: 'pending',
      created_at: now().toISOString(),
      ...expires,
    });
    await writeBatchState(store, runId, current);
  }
  return current;
}

/**
 * Asks the provider where a job is, and records it, every text of the
 * provider's redacted (the adapters redact them; once more here, as they
 * are stored and printed). A job finished by its state whose files are not
 * named yet is recorded as still running, for a few looks.
 */
export async function pollJob(provider: BatchProvider, job: JobRecord, now: () => Date): Promise<JobRecord> {
  if (job.provider_id === undefined) throw new Error(`Batch job ${job.key} was never created at the provider`);
  const status = await provider.status(job.provider_id);
  const looks = job.looks_without_files ?? 0;
  const waitForFiles = status.filesPending === true && looks < LOOKS_FOR_FILES;
  const phase = waitForFiles ? 'running' : status.phase;
  const finished =
    (phase === 'finished' || phase === 'failed') && job.finished_at === undefined ? { finished_at: now().toISOString() } : {};
  const errors =
    status.errors.length === 0
      ? {}
      : {
          errors: status.errors.map((error) => ({
            code: scrubSecrets(error.code),
            message: scrubSecrets(error.message),
            ...(error.line === undefined ? {} : { line: error.line }),
          })),
        };
  const expires =
    status.expiresAt === undefined || Number.isNaN(status.expiresAt.getTime()) ? {} : { expires_at: status.expiresAt.toISOString() };
  return {
    ...job,
    state: scrubSecrets(status.state),
    phase,
    ...(status.counts === undefined ? {} : { counts: status.counts }),
    ...finished,
    ...errors,
    ...expires,
    ...(waitForFiles ? { looks_without_files: looks + 1 } : {}),
  };
}

export function replaceJob(state: BatchState, job: JobRecord): BatchState {
  return { ...state, jobs: state.jobs.map((known) => (known.key === job.key ? job : known)) };
}
