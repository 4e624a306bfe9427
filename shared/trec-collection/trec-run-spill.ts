import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { InputError } from '../schema/input-error.js';
import { PartitionFiles } from '../rows/partition-files.js';
import { repeatedDocumentError } from '../trec/run-line.js';
import type { RunColumns, RunEntry } from './trec-ranking.js';
import type { RunLineSink } from './trec-run-lines.js';

/** Lines in one spilled block at most. */
const MAX_BLOCK_PAIRS = 100_000;

/** One topic of a partition: its entries by engine index, in file order. */
export type SpilledTopic = Map<number, RunEntry[]>;

/** The topics of one partition, and the repeated documents found while grouping them. */
export interface SpilledPartition {
  topics: Map<string, SpilledTopic>;
  errors: InputError[];
}

/** The partition of a topic among `partitions`: the same for every run file, on every machine. */
export function partitionOfTopic(qid: string, partitions: number): number {
  return createHash('md5').update(qid).digest().readUInt32BE(0) % partitions;
}

/** Spill files for runs of this many bytes: about 8 MB of lines each, 8 at least (each run file spills its own set of them). */
export function spillPartitionsFor(runBytes: number): number {
  return Math.max(8, Math.ceil(runBytes / (8 * 1024 * 1024)));
}

/** The folder of one run file's spill inside the collection's spill folder. */
function runFolder(folder: string, file: number): string {
  return join(folder, `run-${file}`);
}

/**
 * The lines of one TREC run file kept on disk rather than in memory: each
 * line goes to one of `partitions` spill files by a hash of its topic id, so
 * every line of a topic lands in the same partition of every run file's
 * spill, and the topics of a partition are read back from all of them at
 * once (SpilledRuns): memory is bounded by a partition (a few topics), not by
 * the runs (17 runs of 100 topics × 1,000 documents are 1.7 million lines).
 * Each run file spills on its own, so several can spill at once.
 *
 * A spilled line is a block of consecutive lines of one topic and tag (a run
 * file holds each topic's lines together):
 * `qid TAB tag number TAB file TAB first line TAB docno score docno score ...`,
 * the tag numbered in the order the file first uses it. The fields of a TREC
 * line hold no whitespace, so tabs and spaces separate them safely, and a
 * block costs far less to write and read than its lines.
 */
export class TrecRunSpill implements RunLineSink {
  private readonly spill: PartitionFiles;
  private readonly partitionOfTopic = new Map<string, number>();
  /** The block being built: its header, its `docno score` pairs, and where the next line must be to join it. */
  private block: { qid: string; tag: number; nextLine: number; head: string; pairs: string[] } | undefined;

  constructor(
    folder: string,
    readonly partitions: number,
    /** The run file's index among the collection's runs. */
    private readonly file: number,
  ) {
    this.spill = new PartitionFiles(runFolder(folder, file), partitions, 'tsv');
  }

  private partitionOf(qid: string): number {
    let partition = this.partitionOfTopic.get(qid);
    if (partition === undefined) {
      partition = partitionOfTopic(qid, this.partitions);
      this.partitionOfTopic.set(qid, partition);
    }
    return partition;
  }

  readonly keepsScoreText = true;

  /**
   * Buffers one line, its score as written (already checked to be a finite
   * number: the text parses to the same double, and is cheaper to copy than
   * a number is to print). A reader calls flushIfFull between chunks of its file.
   */
  add(qid: string, tag: number, docno: string, _value: number, line: number, scoreText: string | undefined): void {
    const score = scoreText as string;
    const block = this.block;
    if (block !== undefined && block.nextLine === line && block.qid === qid && block.tag === tag) {
      // An array joined once: appending to one long string costs several times more.
      block.pairs.push(docno, score);
      block.nextLine = line + 1;
      // A block is bounded too, should one topic of one run have millions of lines.
      if (block.pairs.length >= MAX_BLOCK_PAIRS * 2) this.closeBlock();
      return;
    }
    this.closeBlock();
    this.block = { qid, tag, nextLine: line + 1, head: `${qid}\t${tag}\t${this.file}\t${line}\t`, pairs: [docno, score] };
  }

  private closeBlock(): void {
    const block = this.block;
    if (block === undefined) return;
    this.spill.push(this.partitionOf(block.qid), `${block.head}${block.pairs.join(' ')}\n`);
    this.block = undefined;
  }

  async flushIfFull(): Promise<void> {
    await this.spill.flushIfFull();
  }

  /** Writes what is buffered; call when the file is read. */
  async flush(): Promise<void> {
    this.closeBlock();
    await this.spill.flush();
  }
}

/**
 * The spills of a collection's run files (TrecRunSpill), read back partition
 * by partition: a partition's blocks of every file, in file order, so the
 * lines of a topic come as one read of the files in turn would give them.
 */
export class SpilledRuns {
  private readonly files: PartitionFiles[];

  constructor(
    private readonly folder: string,
    readonly partitions: number,
    /** Input files by index, to name them in errors. */
    private readonly fileNames: readonly string[],
    /** Engine index of each file's tag numbers: engineOf[file][tag number]. */
    private readonly engineOf: readonly (readonly number[])[],
  ) {
    this.files = fileNames.map((_, file) => new PartitionFiles(runFolder(folder, file), partitions, 'tsv'));
  }

  partitionOf(qid: string): number {
    return partitionOfTopic(qid, this.partitions);
  }

  /**
   * One partition's topics, grouped by engine. A document a run retrieves
   * twice for a topic is an error naming the later line, as in trec_eval,
   * and only its first line counts.
   */
  async read(partition: number, engineNames: readonly string[]): Promise<SpilledPartition> {
    return this.group(
      partition,
      engineNames,
      () => [] as RunEntry[],
      (entries, docno, score) => entries.push({ docno, score }),
    );
  }

  /** read, with each topic's list of an engine as two columns rather than an object per line. */
  async readColumns(
    partition: number,
    engineNames: readonly string[],
  ): Promise<{ topics: Map<string, Map<number, RunColumns>>; errors: InputError[] }> {
    return this.group(
      partition,
      engineNames,
      (): RunColumns => ({ docnos: [], scores: [] }),
      (columns, docno, score) => {
        columns.docnos.push(docno);
        columns.scores.push(score);
      },
    );
  }

  private async group<List>(
    partition: number,
    engineNames: readonly string[],
    create: () => List,
    add: (list: List, docno: string, score: number) => void,
  ): Promise<{ topics: Map<string, Map<number, List>>; errors: InputError[] }> {
    const texts = await Promise.all(this.files.map((files) => files.read(partition)));
    const topics = new Map<string, Map<number, List>>();
    const seen = new Map<string, Set<string>>();
    const errors: InputError[] = [];
    for (const text of texts) {
      let start = 0;
      while (start < text.length) {
        const end = text.indexOf('\n', start);
        const [qid = '', tagText = '', fileText = '', firstLineText = '', pairsText = ''] = text.slice(start, end).split('\t');
        start = end + 1;
        const engine = this.engineOf[Number(fileText)]?.[Number(tagText)] as number;
        const key = `${qid}\t${engine}`;
        let docnos = seen.get(key);
        if (docnos === undefined) {
          docnos = new Set();
          seen.set(key, docnos);
        }
        let byEngine = topics.get(qid);
        if (byEngine === undefined) {
          byEngine = new Map();
          topics.set(qid, byEngine);
        }
        let list = byEngine.get(engine);
        if (list === undefined) {
          list = create();
          byEngine.set(engine, list);
        }
        const pairs = pairsText.split(' ');
        for (let index = 0; index < pairs.length; index += 2) {
          const docno = pairs[index] as string;
          if (docnos.has(docno)) {
            const line = Number(firstLineText) + index / 2;
            errors.push(
              repeatedDocumentError(this.fileNames[Number(fileText)] ?? fileText, line, qid, docno, engineNames[engine] ?? String(engine)),
            );
            continue;
          }
          docnos.add(docno);
          add(list, docno, Number(pairs[index + 1]));
        }
      }
    }
    return { topics, errors };
  }

  async remove(): Promise<void> {
    await rm(this.folder, { recursive: true, force: true });
  }
}
