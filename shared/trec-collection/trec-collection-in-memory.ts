import type { InputError } from '../schema/input-error.js';
import type { ExpectedDocument } from '../schema/eval-case.js';
import { INLINE_CHUNK_LIMIT } from '../schema/stored-case.js';
import { compactRankingSchema } from '../schema/compact-ranking.js';
import type { DatasetCounter, DatasetEvent, SerializedCase } from '../rows/dataset-events.js';
import { compareBytes } from '../trec/trec-order.js';
import { repeatedDocumentError } from '../trec/run-line.js';
import { RunNames } from './run-names.js';
import { errorReporter } from './trec-inputs.js';
import type { CollectionQrels } from './trec-qrels-reader.js';
import { buildTrecCase } from './trec-case.js';
import { serializeCase, serializedCaseEvent, storedTopicCase } from './trec-partition-cases.js';
import type { RunFileTopics, TopicRanking } from './trec-run-topics.js';

/** Run files of at most this many bytes in all are read whole rather than spilled: the cases then need no pass over spill files. */
export const RUNS_IN_MEMORY_BYTES = 96 * 1024 * 1024;

/** One engine's ranked list of a topic. */
interface EngineRanking {
  readonly engine: number;
  /** The run file whose `json` holds the ranking. */
  readonly file: number;
  readonly ranking: TopicRanking;
}

/**
 * A collection's run files read whole (readRunTopics), their runs named: the
 * lines of each topic of each engine, ranked. Undefined when two of the
 * files' runs would get one name (the same file given twice, or two files of
 * one name with a tag an earlier file uses): their lines then make one
 * engine, which only grouping the lines of all the files together gives.
 */
export class RunsInMemory {
  private constructor(
    private readonly files: readonly string[],
    private readonly read: readonly RunFileTopics[],
    /** Engine index of each file's tag numbers: engineOf[file][tag number]. */
    private readonly engineOf: readonly (readonly number[])[],
    private readonly engineNames: readonly string[],
  ) {}

  static of(files: readonly string[], read: readonly RunFileTopics[]): RunsInMemory | undefined {
    const names = new RunNames();
    const engineNames: string[] = [];
    const taken = new Set<string>();
    const engineOf: number[][] = [];
    for (const [index, file] of files.entries()) {
      const numbers: number[] = [];
      for (const tag of read[index]?.tags ?? []) {
        const name = names.nameFor(tag, file);
        if (taken.has(name)) return undefined;
        taken.add(name);
        numbers.push(engineNames.push(name) - 1);
      }
      engineOf.push(numbers);
    }
    return new RunsInMemory(files, read, engineOf, engineNames);
  }

  /**
   * The events of the load after the qrels': each file's lines counted and
   * its errors (bad lines and repeated documents, in line order), the
   * queries' errors, then one case a topic in trec_eval's order.
   */
  async *events(
    qrels: CollectionQrels,
    counter: DatasetCounter,
    queries: { texts: ReadonlyMap<string, string>; errors: readonly InputError[] },
  ): AsyncGenerator<DatasetEvent> {
    const report = errorReporter(counter);
    for (const [index, file] of this.files.entries()) {
      const read = this.read[index];
      if (read === undefined) continue;
      counter.row(read.rows);
      yield* report(this.errorsOf(file, index, read));
    }
    yield* report(queries.errors);
    const byTopic = this.rankingsByTopic();
    const topicIds = [...new Set([...qrels.topics.keys(), ...byTopic.keys()])].sort(compareBytes);
    for (const qid of topicIds) {
      const serialized = this.topicCase(qid, byTopic.get(qid) ?? [], qrels.topics.get(qid), queries.texts);
      byTopic.delete(qid);
      counter.caseOf(serialized.engines, serialized.references);
      yield serializedCaseEvent(serialized);
    }
  }

  /** A file's bad lines and repeated documents, in line order. */
  private errorsOf(file: string, index: number, read: RunFileTopics): InputError[] {
    if (read.repeats.length === 0) return read.errors;
    const repeats = read.repeats.map(({ line, qid, tag, docno }): InputError => {
      const engine = this.engineNames[this.engineOf[index]?.[tag] as number];
      return repeatedDocumentError(file, line, qid, docno, engine);
    });
    const merged: InputError[] = [];
    let next = 0;
    for (const error of read.errors) {
      while (next < repeats.length && (repeats[next] as InputError).line < error.line) merged.push(repeats[next++] as InputError);
      merged.push(error);
    }
    return merged.concat(repeats.slice(next));
  }

  /** Every topic's rankings, by engine in the order the engines were first met. */
  private rankingsByTopic(): Map<string, EngineRanking[]> {
    const byTopic = new Map<string, EngineRanking[]>();
    for (const [index, read] of this.read.entries()) {
      for (const ranking of read.rankings) {
        const list = byTopic.get(ranking.qid);
        const entry = { engine: this.engineOf[index]?.[ranking.tag] as number, file: index, ranking };
        if (list === undefined) byTopic.set(ranking.qid, [entry]);
        else list.push(entry);
      }
    }
    // A file's tags are numbered in the order it first uses them, not the order its topics come in.
    for (const list of byTopic.values()) list.sort((left, right) => left.engine - right.engine);
    return byTopic;
  }

  /**
   * One topic's case, serialized: a long one in its stored form straight from
   * the rankings' text; a short one built and written as JSON, as the other
   * loads write it.
   */
  private topicCase(
    qid: string,
    rankings: readonly EngineRanking[],
    judgments: ExpectedDocument[] | undefined,
    queries: ReadonlyMap<string, string>,
  ): SerializedCase {
    const chunks = rankings.reduce((sum, { ranking }) => sum + ranking.count, 0);
    const named = rankings.map(
      ({ engine, file, ranking }) =>
        [this.engineNames[engine] as string, (this.read[file] as RunFileTopics).json.subarray(ranking.start, ranking.end)] as const,
    );
    if (chunks > INLINE_CHUNK_LIMIT) return storedTopicCase(qid, queries.get(qid) ?? qid, named, chunks, judgments);
    const runs = named.map(([engine, json]) => {
      const { doc_uris: docnos, scores } = compactRankingSchema.parse(
        JSON.parse(Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString('utf8')),
      );
      return [engine, docnos.map((docno, index) => ({ docno, score: scores[index] as number }))] as const;
    });
    return serializeCase(buildTrecCase(qid, judgments, runs, { queries }));
  }
}
