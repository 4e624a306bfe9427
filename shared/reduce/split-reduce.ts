import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { ObjectStore } from '../ports/object-store.js';
import { sendAll, type WorkQueue } from '../ports/work-queue.js';
import { compareText } from '../report/ordering.js';
import type { ReduceRangeMessage } from '../schema/pipeline-messages.js';
import type { Report } from '../schema/report.js';
import { readJsonWith } from '../schema/parse-json-with.js';
import { caseIdsSchema } from '../schema/run-records.js';
import { caseLineTexts } from '../report/cases-jsonl.js';
import { aggregateResults } from './aggregate-range.js';
import { parsePartial, REDUCE_RANGE_SIZE, serializePartial, type RangePartial } from '../report/range-partial.js';
import type { RunCompletion } from '../run/run-completion.js';
import { runKeys } from '../run/run-identity.js';
import { withScratchFolder } from '../run/scratch-folder.js';
import { writeRunReport } from './write-report.js';
import { FileWriter } from '../ports/file-writer.js';

/**
 * From this many cases on, the deployed reducer splits a run's reduce. One
 * invocation reads and folds about 1,100 results a second at 32 reads in
 * flight and 20 ms a read (bench:scale: a range of 5,000 in 4-7 s), so a run
 * this large would still fit one invocation's 15 minutes many times over;
 * splitting here keeps every invocation short and its memory to one range,
 * long before a single pass would come near the limit (about 900,000 cases).
 */
export const SPLIT_REDUCE_FROM = 50_000;

/**
 * A split reduce. The check that finds a large run complete sends one
 * `reduce-range` message per range of REDUCE_RANGE_SIZE sorted case ids that
 * has no partial yet, and checks again later; each message's invocation
 * aggregates its range into `runs/<run>/partials/<range>.json` (columns and
 * counts) and `.jsonl` (the range's lines of cases.jsonl). The check that
 * finds every partial there merges them and writes the report. Every step is
 * idempotent: a partial's key and bytes depend on the range alone, so a
 * duplicated or redelivered message rewrites the same object, and a check
 * repeated before the ranges are done only sends their messages again.
 */
export async function fanOutRanges(
  dependencies: { readonly store: ObjectStore; readonly control: WorkQueue },
  completion: RunCompletion,
): Promise<{ kind: 'pending'; pending: number; ranges: number } | { kind: 'merged'; reported: { report: Report; keys: string[] } }> {
  const { store } = dependencies;
  const runId = completion.manifest.run_id;
  const ranges = Math.ceil(completion.caseIds.length / REDUCE_RANGE_SIZE);
  const stored = new Set<string>();
  for await (const key of store.list(runKeys.partialsPrefix(runId))) stored.add(key);
  const pending: number[] = [];
  for (let range = 0; range < ranges; range++) {
    if (!stored.has(runKeys.partial(runId, range)) || !stored.has(runKeys.partialLines(runId, range))) pending.push(range);
  }
  if (pending.length === 0) return { kind: 'merged', reported: await mergePartials(store, completion, ranges) };
  const messages = pending.map((range, index) => {
    const message: ReduceRangeMessage = { kind: 'reduce-range', run_id: runId, range };
    return { id: String(index % 10), body: JSON.stringify(message) };
  });
  await sendAll(dependencies.control, messages);
  return { kind: 'pending', pending: pending.length, ranges };
}

/** One `reduce-range` message: aggregates that range of the run and stores its partial and lines. */
export async function reduceRange(store: ObjectStore, message: ReduceRangeMessage): Promise<{ cases: number }> {
  const sortedCaseIds = await sortedRunCaseIds(store, message.run_id);
  const ids = sortedCaseIds.slice(message.range * REDUCE_RANGE_SIZE, (message.range + 1) * REDUCE_RANGE_SIZE);
  if (ids.length === 0)
    throw new Error(
      `Expected range ${message.range} of run ${message.run_id} to hold cases, but the run has ${sortedCaseIds.length} cases`,
    );
  const { partial, evaluated } = await aggregateResults(store, message.run_id, message.range, ids);
  // The lines first: a partial present means its lines are there too.
  await store.put(runKeys.partialLines(message.run_id, message.range), [...caseLineTexts(evaluated)].join(''));
  await store.put(runKeys.partial(message.run_id, message.range), serializePartial(partial));
  return { cases: ids.length };
}

async function mergePartials(store: ObjectStore, completion: RunCompletion, ranges: number): Promise<{ report: Report; keys: string[] }> {
  const { manifest } = completion;
  const sortedCaseIds = [...completion.caseIds].sort(compareText);
  const partials: RangePartial[] = [];
  for (let range = 0; range < ranges; range++) {
    const bytes = await store.get(runKeys.partial(manifest.run_id, range));
    if (bytes === undefined)
      throw new Error(`Expected the partial of range ${range} of run ${manifest.run_id}; it was listed a moment ago`);
    partials.push(parsePartial(bytes, runKeys.partial(manifest.run_id, range)));
  }
  return withScratchFolder('assay-merge-', async (folder) => {
    const casesPath = join(folder, 'cases.jsonl');
    const piecePath = join(folder, 'range.jsonl');
    const output = new FileWriter(casesPath);
    try {
      for (let range = 0; range < ranges; range++) {
        if (!(await store.download(runKeys.partialLines(manifest.run_id, range), piecePath))) {
          throw new Error(`Expected the cases.jsonl lines of range ${range} of run ${manifest.run_id}; they were listed a moment ago`);
        }
        for await (const chunk of createReadStream(piecePath)) await output.write(chunk);
      }
    } finally {
      await output.close();
    }
    return writeRunReport(store, { manifest, sortedCaseIds, partials, casesPath, lines: undefined });
  });
}

/** The run's distinct case ids in code-unit order. */
export async function sortedRunCaseIds(store: ObjectStore, runId: string): Promise<string[]> {
  const bytes = await store.get(runKeys.caseIds(runId));
  const listed = readJsonWith(caseIdsSchema, bytes ?? new Uint8Array(), runKeys.caseIds(runId));
  return [...new Set(listed)].sort(compareText);
}
