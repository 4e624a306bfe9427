import type { EvalCase, ExpectedDocument } from '../schema/eval-case.js';
import type { InputError } from '../schema/input-error.js';
import { evalCaseSchema } from '../schema/eval-case.js';
import { INLINE_CHUNK_LIMIT, parseStoredCase, storedCaseText } from '../schema/stored-case.js';
import { compareBytes } from '../trec/trec-order.js';
import { isLabelled } from './dataset-events.js';
import { buildTrecCase } from './trec-case.js';
import type { RunEntry } from './trec-ranking.js';
import { SpilledRuns } from './trec-run-spill.js';

/**
 * A case built elsewhere (a worker thread) and handed over as text: cheap to
 * send between threads, and for a long case already in the form the pipeline
 * stores it in, so nobody builds its thousands of chunk objects twice.
 */
export interface SerializedCase {
  readonly requestId: string;
  /** Its engines, in the case's order. */
  readonly engines: readonly string[];
  readonly labelled: boolean;
  /** Chunks over all its engines. */
  readonly chunks: number;
  /** `case`: the case's own JSON; `stored`: its stored form (stored-case.ts), for a case of more than INLINE_CHUNK_LIMIT chunks. */
  readonly form: 'case' | 'stored';
  readonly text: string;
}

/** One spilled partition to turn into cases: the spill (SpilledRuns), the engines, and the judgments of the partition's topics. */
export interface PartitionRequest {
  readonly folder: string;
  readonly partitions: number;
  readonly fileNames: readonly string[];
  readonly engineOf: readonly (readonly number[])[];
  readonly engineNames: readonly string[];
  readonly partition: number;
  /** qid → judgments, for every topic of the qrels in this partition. */
  readonly judgments: readonly (readonly [string, readonly ExpectedDocument[]])[];
}

export interface SerializedPartition {
  /** Repeated documents found while grouping the partition. */
  readonly errors: InputError[];
  /** The partition's cases in trec_eval's topic order. */
  readonly cases: SerializedCase[];
}

/** Turns spilled partitions into serialized cases: in this thread, or on worker threads. */
export type PartitionCaseBuilder = (request: PartitionRequest) => Promise<SerializedPartition>;

/**
 * The cases of one spilled partition of a collection without queries or
 * corpus (ground truth only), serialized: what loadSpilledCollection builds
 * for the partition, as text.
 */
export async function serializedPartitionCases(request: PartitionRequest): Promise<SerializedPartition> {
  const spill = new SpilledRuns(request.folder, request.partitions, request.fileNames, request.engineOf);
  const { topics, errors } = await spill.read(request.partition, request.engineNames);
  const judgments = new Map(request.judgments);
  const topicIds = [...new Set([...topics.keys(), ...judgments.keys()])].sort(compareBytes);
  const cases = topicIds.map((qid) => serializeCase(buildTrecCase(qid, judgments.get(qid) as ExpectedDocument[] | undefined, namedRuns(topics.get(qid), request.engineNames), {})));
  return { errors, cases };
}

/** A topic's runs by engine name, in the order the engines were first met. */
export function namedRuns(byEngine: ReadonlyMap<number, RunEntry[]> | undefined, engineNames: readonly string[]): [string, RunEntry[]][] {
  return [...(byEngine ?? [])].sort(([left], [right]) => left - right).map(([index, entries]) => [engineNames[index] as string, entries]);
}

function serializeCase(evalCase: EvalCase): SerializedCase {
  let chunks = 0;
  for (const output of Object.values(evalCase.engines)) chunks += output.retrieved_context.length;
  const stored = chunks > INLINE_CHUNK_LIMIT;
  return {
    requestId: evalCase.request_id,
    engines: Object.keys(evalCase.engines),
    labelled: isLabelled(evalCase),
    chunks,
    form: stored ? 'stored' : 'case',
    text: stored ? storedCaseText(evalCase) : JSON.stringify(evalCase),
  };
}

/** The case a serialized case holds. */
export function deserializedCase(serialized: SerializedCase): EvalCase {
  const json: unknown = JSON.parse(serialized.text);
  return serialized.form === 'stored' ? parseStoredCase(json) : evalCaseSchema.parse(json);
}
