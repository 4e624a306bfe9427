import type { EvalCase, ExpectedDocument } from '../schema/eval-case.js';
import type { InputError } from '../schema/input-error.js';
import { evalCaseSchema } from '../schema/eval-case.js';
import { INLINE_CHUNK_LIMIT, parseStoredCase, storedCaseText } from '../schema/stored-case.js';
import { compareBytes } from '../trec/trec-order.js';
import { referencesOf, type DatasetEvent, type SerializedCase } from '../rows/dataset-events.js';
import { buildTrecCase } from './trec-case.js';
import { SpilledRuns } from './trec-run-spill.js';
import { inTrecOrder, type RunColumns } from './trec-ranking.js';

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
  const { topics, errors } = await spill.readColumns(request.partition, request.engineNames);
  const judgments = new Map(request.judgments);
  const topicIds = [...new Set([...topics.keys(), ...judgments.keys()])].sort(compareBytes);
  const cases = topicIds.map((qid) => serializeTopic(qid, judgments.get(qid), namedRuns(topics.get(qid), request.engineNames)));
  return { errors, cases };
}

/**
 * One topic's case, serialized. A long case (a sweep's: a thousand
 * documents an engine) is written in its stored form straight from the
 * columns, the same text storedCaseText gives for the case buildTrecCase
 * builds, without an object per document; a short one is built and written
 * as JSON.
 */
function serializeTopic(
  qid: string,
  judgments: readonly ExpectedDocument[] | undefined,
  runs: readonly (readonly [string, RunColumns])[],
): SerializedCase {
  const chunks = runs.reduce((sum, [, columns]) => sum + columns.docnos.length, 0);
  if (chunks <= INLINE_CHUNK_LIMIT) {
    const entries = runs.map(
      ([engine, columns]) => [engine, columns.docnos.map((docno, index) => ({ docno, score: columns.scores[index] as number }))] as const,
    );
    return serializeCase(buildTrecCase(qid, judgments as ExpectedDocument[] | undefined, entries, {}));
  }
  const rankings = runs.map(([engine, columns]) => {
    const { docnos, scores } = inTrecOrder(columns);
    return [engine, Buffer.from(`{"doc_uris":${JSON.stringify(docnos)},"scores":${JSON.stringify(scores)}}`)] as const;
  });
  return storedTopicCase(qid, qid, rankings, chunks, judgments);
}

/**
 * A topic's case in its stored form, written from each engine's ranking as
 * the stored form's JSON (`{"doc_uris":[...],"scores":[...]}`, UTF-8): the
 * text storedCaseText gives for the case buildTrecCase builds, as the bytes
 * the store writes, joined once without making a string of megabytes.
 */
export function storedTopicCase(
  qid: string,
  request: string,
  rankings: readonly (readonly [string, Uint8Array])[],
  chunks: number,
  judgments: readonly ExpectedDocument[] | undefined,
): SerializedCase {
  const parts: Uint8Array[] = [Buffer.from(`{"request_id":${JSON.stringify(qid)},"request":${JSON.stringify(request)},"engines":{`)];
  for (const [index, [engine, ranking]] of rankings.entries())
    parts.push(Buffer.from(`${index === 0 ? '' : ','}${JSON.stringify(engine)}:{"tags":{},"ranking":`), ranking, CLOSE);
  parts.push(
    Buffer.from(judgments === undefined ? '},"tags":{}}' : `},"tags":{},"expected_retrieved_context":${JSON.stringify(judgments)}}`),
  );
  return {
    requestId: qid,
    engines: rankings.map(([engine]) => engine),
    // A TREC topic carries only its qrels.
    references: { labelled: (judgments?.length ?? 0) > 0, expectedResponse: false, humanVerdicts: false },
    chunks,
    form: 'stored',
    text: Buffer.concat(parts),
  };
}

const CLOSE = Buffer.from('}');

/** A topic's runs by engine name, in the order the engines were first met. */
export function namedRuns<List>(byEngine: ReadonlyMap<number, List> | undefined, engineNames: readonly string[]): [string, List][] {
  return [...(byEngine ?? [])].sort(([left], [right]) => left - right).map(([index, entries]) => [engineNames[index] as string, entries]);
}

/** A case as text: its own JSON, or its stored form past INLINE_CHUNK_LIMIT chunks. */
export function serializeCase(evalCase: EvalCase): SerializedCase {
  let chunks = 0;
  for (const output of Object.values(evalCase.engines)) chunks += output.retrieved_context.length;
  const stored = chunks > INLINE_CHUNK_LIMIT;
  return {
    requestId: evalCase.request_id,
    engines: Object.keys(evalCase.engines),
    references: referencesOf(evalCase),
    chunks,
    form: stored ? 'stored' : 'case',
    text: stored ? storedCaseText(evalCase) : JSON.stringify(evalCase),
  };
}

/** A case event of a serialized case: its case is read from the text only when asked for. */
export function serializedCaseEvent(serialized: SerializedCase): DatasetEvent {
  return {
    kind: 'case',
    get case() {
      return deserializedCase(serialized);
    },
    serialized,
  };
}

/** The case a serialized case holds. */
export function deserializedCase(serialized: SerializedCase): EvalCase {
  const json: unknown = JSON.parse(
    typeof serialized.text === 'string'
      ? serialized.text
      : Buffer.from(serialized.text.buffer, serialized.text.byteOffset, serialized.text.byteLength).toString('utf8'),
  );
  return serialized.form === 'stored' ? parseStoredCase(json) : evalCaseSchema.parse(json);
}
