import pLimit from 'p-limit';
import { z } from 'zod';
import type { BatchLine, BatchProvider, UnreadableReason } from '../batch-providers/batch-provider.js';
import { batchKeys, type BatchAnswer } from '../schema/batch-request.js';
import type { TokenUsage } from '../judge-answers/judge-completion.js';
import type { ObjectStore } from '../ports/object-store.js';
import { readJsonWith } from '../schema/parse-json-with.js';
import type { JudgeUsageRecord } from '../schema/run-records.js';
import type { JobRecord } from './batch-state.js';

/** Answers written to the store at once while a job is collected. */
const WRITE_CONCURRENCY = 16;

/**
 * The judge usage that lines of no request of the job are billed under: the
 * provider charged for them, so the report counts them, and no judge asked.
 */
export const UNMATCHED_LINES = '(batch lines of no request)';

/** A request a job holds, as its requests file names it: the judge whose judgment needs it and the model its prices name. */
export interface OwedRequest {
  readonly id: string;
  readonly judge: string;
  readonly model: string;
}

/** A job's requests file: the requests in its input's order; a job recorded before they named their judge holds their ids alone. */
const jobRequestsSchema = z.union([
  z.object({ requests: z.array(z.object({ id: z.string(), judge: z.string(), model: z.string() })) }),
  z.array(z.string()),
]);

export function jobRequestsText(requests: readonly OwedRequest[]): string {
  return JSON.stringify({ requests });
}

/**
 * Stores a finished job's answers under their request ids, each once (an
 * answer already stored, by an earlier collection that died half-way, is
 * kept), and for every request of the job without a readable answer a line
 * failure, so it is sent again like a line the job did not run and no case
 * waits for an answer that will never come: a line that is not JSON or cut
 * off, an error body under status 200, and both lines of a request answered
 * twice (which of them is the answer cannot be told). Lines of requests the
 * job did not hold are counted and ignored. Every line is counted on the
 * job's record by why it was unread, and what the provider billed for every
 * line (read or not, matched or not) is recorded per judge and model
 * (`runs/<run>/batch/usage/<job>.json`), at the batch price: the report
 * counts paid tokens when they are collected, not when a case reads them.
 */
export async function collectJob(store: ObjectStore, provider: BatchProvider, runId: string, job: JobRecord): Promise<JobRecord> {
  if (job.provider_id === undefined) throw new Error(`Batch job ${job.key} was never created at the provider`);
  const owed = await owedRequests(store, runId, job);
  const fallbackModel = owed.values().next().value?.model ?? job.model ?? '';
  const limit = pLimit(WRITE_CONCURRENCY);
  const writes: Promise<unknown>[] = [];
  const write = (requestId: string, answer: BatchAnswer['answer'], overwrite = false): void => {
    const record: BatchAnswer = { id: requestId, job: job.key, answer };
    const options = overwrite ? {} : { ifNoneMatch: true };
    writes.push(limit(() => store.put(batchKeys.answer(runId, requestId), JSON.stringify(record), options)));
  };
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  const unread = new Map<UnreadableReason, number>();
  const count = (reason: UnreadableReason): void => void unread.set(reason, (unread.get(reason) ?? 0) + 1);
  const billed = new BilledUsage();
  for await (const line of provider.answers(job.provider_id)) {
    const request = line.requestId === undefined ? undefined : owed.get(line.requestId);
    if (line.billed !== undefined) billed.add(request?.judge ?? UNMATCHED_LINES, request?.model ?? fallbackModel, line.billed);
    const reason = unreadReason(line, request, seen);
    if (reason === 'duplicate id' && request !== undefined) duplicates.add(request.id);
    if (reason !== undefined) count(reason);
    if (request === undefined || seen.has(request.id)) continue;
    seen.add(request.id);
    write(request.id, line.kind === 'answer' ? line.answer : unreadAnswer(line.reason, provider));
  }
  for (const request of owed.values()) {
    if (!seen.has(request.id))
      write(request.id, { kind: 'line-failed', code: 'not_returned', message: `${provider.name} returned no line for the request` });
  }
  await Promise.all(writes);
  // Answered twice, the request has no answer to trust: both lines are read as not run, and it is sent again.
  for (const requestId of duplicates) write(requestId, duplicateAnswer(provider), true);
  await Promise.all(writes);
  await store.put(batchKeys.usage(runId, job.key), JSON.stringify(billed.records()));
  const unreadLines =
    unread.size === 0 ? {} : { unread_lines: Object.fromEntries([...unread].sort(([left], [right]) => (left < right ? -1 : 1))) };
  return { ...job, collected: true, ...unreadLines };
}

/** Why a line is not the answer of a request of the job, or undefined when it is. */
function unreadReason(line: BatchLine, request: OwedRequest | undefined, seen: ReadonlySet<string>): UnreadableReason | undefined {
  if (request !== undefined && seen.has(request.id)) return 'duplicate id';
  if (line.kind === 'unreadable') return line.reason;
  return request === undefined ? 'unknown id' : undefined;
}

function unreadAnswer(reason: UnreadableReason, provider: BatchProvider): BatchAnswer['answer'] {
  return {
    kind: 'line-failed',
    code: 'unreadable',
    message: `${provider.name} wrote a line for the request that could not be read (${reason})`,
  };
}

function duplicateAnswer(provider: BatchProvider): BatchAnswer['answer'] {
  return { kind: 'line-failed', code: 'duplicate', message: `${provider.name} wrote two lines for the request` };
}

async function owedRequests(store: ObjectStore, runId: string, job: JobRecord): Promise<Map<string, OwedRequest>> {
  const key = batchKeys.jobRequests(runId, job.key);
  const read = readJsonWith(jobRequestsSchema, (await store.get(key)) ?? new Uint8Array(), key);
  const requests = Array.isArray(read) ? read.map((id) => ({ id, judge: UNMATCHED_LINES, model: job.model ?? '' })) : read.requests;
  return new Map(requests.map((request) => [request.id, request]));
}

/** What a job's lines were billed, per judge and model, as judge usage records: tokens, at the batch price, and no call (the cases count those). */
class BilledUsage {
  private readonly byJudge = new Map<string, Map<string, TokenUsage>>();

  add(judge: string, model: string, tokens: TokenUsage): void {
    const models = this.byJudge.get(judge) ?? new Map<string, TokenUsage>();
    const sum = models.get(model) ?? { inputTokens: 0, outputTokens: 0 };
    models.set(model, { inputTokens: sum.inputTokens + tokens.inputTokens, outputTokens: sum.outputTokens + tokens.outputTokens });
    this.byJudge.set(judge, models);
  }

  records(): Record<string, JudgeUsageRecord> {
    const sorted = [...this.byJudge].sort(([left], [right]) => (left < right ? -1 : 1));
    return Object.fromEntries(
      sorted.map(([judge, models]) => {
        const tokens = Object.fromEntries(
          [...models].map(([model, usage]) => [model, { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens }] as const),
        );
        const input = [...models.values()].reduce((sum, usage) => sum + usage.inputTokens, 0);
        const output = [...models.values()].reduce((sum, usage) => sum + usage.outputTokens, 0);
        const record: JudgeUsageRecord = {
          calls: 0,
          cache_hits: 0,
          retries: 0,
          errors: 0,
          input_tokens: input,
          output_tokens: output,
          models: tokens,
          batch_models: tokens,
        };
        return [judge, record] as const;
      }),
    );
  }
}
