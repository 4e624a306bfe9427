import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { InputError } from '../schema/input-error.js';
import { PartitionFiles } from './partition-files.js';
import type { RunEntry } from './trec-ranking.js';

/** Lines in one spilled block at most. */
const MAX_BLOCK_PAIRS = 100_000;

/** One topic of a partition: its entries by engine index, in file order. */
export type SpilledTopic = Map<number, RunEntry[]>;

/** The topics of one partition, and the repeated documents found while grouping them. */
export interface SpilledPartition {
  topics: Map<string, SpilledTopic>;
  errors: InputError[];
}

/**
 * Run lines of a TREC collection kept on disk rather than in memory: each
 * line goes to one of `partitions` spill files by a hash of its topic id, so
 * every line of a topic, from every run file, lands in the same partition and
 * memory is bounded by a partition (a few topics), not by the runs (17 runs
 * of 100 topics × 1,000 documents are 1.7 million lines).
 *
 * A spilled line is a block of consecutive lines of one file, topic and
 * engine (a run file holds each topic's lines together):
 * `qid TAB engine TAB file TAB first line TAB docno score docno score ...`.
 * The fields of a TREC line hold no whitespace, so tabs and spaces separate
 * them safely, and a block costs far less to write and read than its lines.
 */
export class TrecRunSpill {
  private readonly spill: PartitionFiles;
  private readonly partitionOfTopic = new Map<string, number>();
  /** The block being built: its header, its `docno score` pairs, and where the next line must be to join it. */
  private block: { qid: string; engine: number; file: number; nextLine: number; head: string; pairs: string[] } | undefined;

  constructor(
    private readonly folder: string,
    readonly partitions: number,
    /** Input files by index, to name them in errors. */
    private readonly files: readonly string[],
  ) {
    this.spill = new PartitionFiles(folder, partitions, 'tsv');
  }

  /** Spill files for runs of this many bytes: about 2 MB of lines each, 16 at least. */
  static partitionsFor(runBytes: number): number {
    return Math.max(16, Math.ceil(runBytes / (2 * 1024 * 1024)));
  }

  /** The partition of a topic: the same for every run, on every machine. */
  partitionOf(qid: string): number {
    let partition = this.partitionOfTopic.get(qid);
    if (partition === undefined) {
      partition = createHash('md5').update(qid).digest().readUInt32BE(0) % this.partitions;
      this.partitionOfTopic.set(qid, partition);
    }
    return partition;
  }

  /**
   * Buffers one line, its score as written (already checked to be a finite
   * number: the text parses to the same double, and is cheaper to copy than
   * a number is to print). A reader calls flushIfFull between chunks of its file.
   */
  add(qid: string, engine: number, docno: string, score: string, file: number, line: number): void {
    const block = this.block;
    if (block !== undefined && block.nextLine === line && block.qid === qid && block.engine === engine && block.file === file) {
      // An array joined once: appending to one long string costs several times more.
      block.pairs.push(docno, score);
      block.nextLine = line + 1;
      // A block is bounded too, should one topic of one run have millions of lines.
      if (block.pairs.length >= MAX_BLOCK_PAIRS * 2) this.closeBlock();
      return;
    }
    this.closeBlock();
    this.block = { qid, engine, file, nextLine: line + 1, head: `${qid}\t${engine}\t${file}\t${line}\t`, pairs: [docno, score] };
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

  /** Writes what is buffered; call before reading partitions. */
  async flush(): Promise<void> {
    this.closeBlock();
    await this.spill.flush();
  }

  /**
   * One partition's topics, grouped by engine. A document a run retrieves
   * twice for a topic is an error naming the later line, as in trec_eval,
   * and only its first line counts.
   */
  async read(partition: number, engineNames: readonly string[]): Promise<SpilledPartition> {
    const text = await this.spill.read(partition);
    const topics = new Map<string, SpilledTopic>();
    const seen = new Map<string, Set<string>>();
    const errors: InputError[] = [];
    let start = 0;
    while (start < text.length) {
      const end = text.indexOf('\n', start);
      const [qid = '', engineText = '', fileText = '', firstLineText = '', pairsText = ''] = text.slice(start, end).split('\t');
      start = end + 1;
      const engine = Number(engineText);
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
      let entries = byEngine.get(engine);
      if (entries === undefined) {
        entries = [];
        byEngine.set(engine, entries);
      }
      const pairs = pairsText.split(' ');
      for (let index = 0; index < pairs.length; index += 2) {
        const docno = pairs[index] as string;
        if (docnos.has(docno)) {
          const line = Number(firstLineText) + index / 2;
          errors.push({ file: this.files[Number(fileText)] ?? fileText, line, field: 'docno', message: `run ${engineNames[engine] ?? engine} retrieves document ${docno} twice for topic ${qid}`, fix: 'keep one line per topic and document in each run' });
          continue;
        }
        docnos.add(docno);
        entries.push({ docno, score: Number(pairs[index + 1]) });
      }
    }
    return { topics, errors };
  }

  async remove(): Promise<void> {
    await rm(this.folder, { recursive: true, force: true });
  }
}
