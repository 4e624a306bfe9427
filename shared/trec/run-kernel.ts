import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { JudgedRanking } from '../metrics/judged-ranking.js';
import { decodeField } from './byte-lines.js';
import type { RankedRun } from './evaluate.js';
import type { Qrels } from './qrels.js';
import { TREC_RUN_KERNEL_WASM } from './trec-run-kernel-wasm.js';

/** The kernel's exports (kernels/trec-run-kernel.ts). */
export interface KernelExports {
  readonly memory: { readonly buffer: ArrayBuffer };
  reserve(size: number): number;
  setQrels(
    topicCount: number,
    topicEnds: number,
    topicBytes: number,
    judgmentCount: number,
    judgmentTopics: number,
    judgmentMarks: number,
    documentEnds: number,
    documentBytes: number,
  ): void;
  beginRun(size: number): number;
  startLines(length: number): void;
  readLines(start: number, end: number): number;
  rank(): number;
  grades(): number;
  tagStart(): number;
  tagEnd(): number;
  startCollection(length: number): void;
  collect(start: number, end: number): number;
  json(): number;
  table(): number;
  /** For the tests: the double read from `length` bytes at `at` (a newline after them), NaN when left to the JavaScript reader. */
  parseNumber(at: number, length: number): number;
  /** For the tests: the score written at `out` as collect() writes it, its length, or 0 when left to the JavaScript reader. */
  formatNumber(at: number, length: number, out: number): number;
}

/** Run files above this size are left to the JavaScript reader, which streams them: the kernel holds a file whole in its memory, with 28 bytes a line beside it (a 70 MB run of 1.7 million lines peaked at 243 MiB against 197 MiB). */
const LARGEST_FILE = 256 * 1024 * 1024;

/** The part of the WebAssembly JavaScript API used here (the project's type declarations, Node's, have no WebAssembly values). */
interface WebAssemblyApi {
  readonly Module: new (bytes: Uint8Array) => CompiledKernel;
  readonly Instance: new (module: CompiledKernel) => { readonly exports: unknown };
  readonly RuntimeError: abstract new () => Error;
}

type CompiledKernel = { readonly compiledKernel: unique symbol };

let compiled: CompiledKernel | undefined;

/** The compiled kernel, compiled once per thread (a few milliseconds: the module is 6 KB). */
function kernelModule(): CompiledKernel {
  compiled ??= new (webAssembly().Module)(Buffer.from(TREC_RUN_KERNEL_WASM, 'base64'));
  return compiled;
}

function webAssembly(): WebAssemblyApi {
  return Reflect.get(globalThis, 'WebAssembly') as WebAssemblyApi;
}

/** A new instance of the kernel, its memory its own. */
export function kernelInstance(): KernelExports {
  return new (webAssembly().Instance)(kernelModule()).exports as KernelExports;
}

/** Whether an error is the kernel's trap (its memory could not grow): the JavaScript reader, which needs far less, reads the file then. */
export function isKernelTrap(error: unknown): boolean {
  return error instanceof webAssembly().RuntimeError;
}

/**
 * Ranks run files against one set of qrels in WebAssembly
 * (kernels/trec-run-kernel.ts): it reads a run file of the common shape and
 * orders each qrels topic's documents as rank-topic.ts does, and answers
 * undefined for any other file, which the JavaScript reader then reads. Its
 * code needs no warming up in each thread, as the JavaScript reader's does.
 */
export class RunKernel {
  private readonly topicIds: string[];

  private constructor(
    private readonly exports: KernelExports,
    private readonly qrels: Qrels,
  ) {
    this.topicIds = [...qrels.keys()];
  }

  /** A kernel holding these qrels, or undefined when their topic ids are not all ASCII (the kernel compares topic ids as bytes). */
  static for(qrels: Qrels): RunKernel | undefined {
    const topicIds = [...qrels.keys()];
    if (topicIds.some((topicId) => !/^[\x21-\x7e]+$/.test(topicId))) return undefined;
    const exports = kernelInstance();
    const kernel = new RunKernel(exports, qrels);
    kernel.load();
    return kernel;
  }

  /** Copies the qrels into the kernel's memory: topic ids, and each judgment's topic, mark and document id bytes. */
  private load(): void {
    const topicBytes = Buffer.from(this.topicIds.join(''), 'latin1');
    const topicEnds = new Int32Array(this.topicIds.length);
    let end = 0;
    this.topicIds.forEach((topicId, index) => {
      end += topicId.length;
      topicEnds[index] = end;
    });
    let judgmentCount = 0;
    let documentBytesLength = 0;
    for (const judgments of this.qrels.values()) {
      const parts = judgments.documents.toParts();
      judgmentCount += parts.size;
      documentBytesLength += parts.starts[parts.size] as number;
    }
    const judgmentTopics = new Int32Array(judgmentCount);
    const judgmentMarks = new Int32Array(judgmentCount);
    const documentEnds = new Int32Array(judgmentCount);
    const documentBytes = new Uint8Array(documentBytesLength);
    let judgment = 0;
    let documentEnd = 0;
    this.topicIds.forEach((topicId, topic) => {
      const judgments = this.qrels.get(topicId);
      if (judgments === undefined) return;
      const parts = judgments.documents.toParts();
      const used = parts.starts[parts.size] as number;
      documentBytes.set(parts.bytes.subarray(0, used), documentEnd);
      for (let id = 0; id < parts.size; id++) {
        const grade = judgments.grades[id] as number;
        judgmentTopics[judgment] = topic;
        judgmentMarks[judgment] = grade < 0 ? -2 : grade;
        documentEnds[judgment] = documentEnd + (parts.starts[id + 1] as number);
        judgment++;
      }
      documentEnd += used;
    });
    const placed = [topicEnds, topicBytes, judgmentTopics, judgmentMarks, documentEnds, documentBytes].map((array) => this.place(array));
    const [topicEndsAt, topicBytesAt, topicsAt, marksAt, endsAt, bytesAt] = placed as [number, number, number, number, number, number];
    this.exports.setQrels(this.topicIds.length, topicEndsAt, topicBytesAt, judgmentCount, topicsAt, marksAt, endsAt, bytesAt);
  }

  /** Copies an array into reserved kernel memory and returns where. */
  private place(array: Uint8Array | Int32Array): number {
    const at = this.exports.reserve(array.byteLength);
    new Uint8Array(this.exports.memory.buffer, at, array.byteLength).set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    return at;
  }

  /**
   * The rankings of the run file at `path`, or undefined when the file is not
   * of the shape the kernel reads (the caller then reads it with readRun, by
   * the run-line rule of run-line.ts).
   * I/O errors throw, as readRun's do.
   */
  rank(path: string): RankedRun | undefined {
    const loaded = readRunFile(this.exports, path);
    if (loaded === undefined) return undefined;
    const { exports } = this;
    let endsAt: number;
    try {
      exports.startLines(loaded.end - loaded.start);
      if (exports.readLines(loaded.start, loaded.end) !== 0) return undefined;
      endsAt = exports.rank();
    } catch (error) {
      // The kernel's memory could not grow (it traps): the streaming reader needs far less. The next run starts afresh.
      if (isKernelTrap(error)) return undefined;
      throw error;
    }
    // A document retrieved twice: the JavaScript reader names it.
    if (endsAt === 0) return undefined;
    const memory = exports.memory.buffer;
    const ends = new Int32Array(memory, endsAt, this.topicIds.length).slice();
    const grades = new Int32Array(memory, exports.grades(), ends.length === 0 ? 0 : (ends[ends.length - 1] as number)).slice();
    const runId = decodeField(Buffer.from(memory, loaded.input, loaded.end), exports.tagStart(), exports.tagEnd());
    const rankings = new Map<string, JudgedRanking>();
    let from = 0;
    this.topicIds.forEach((topicId, topic) => {
      const to = ends[topic] as number;
      if (to > from) rankings.set(topicId, { grades: grades.subarray(from, to), gradeCounts: this.qrels.get(topicId)?.gradeCounts ?? [] });
      from = to;
    });
    return { rankingOf: (topicId) => rankings.get(topicId), runId };
  }
}

/** Room for the next run file in the kernel's memory, or undefined when its memory cannot grow that far. */
export function reserveInput(exports: KernelExports, size: number): number | undefined {
  try {
    return exports.beginRun(size);
  } catch (error) {
    if (isKernelTrap(error)) return undefined;
    throw error;
  }
}

/**
 * Reads a run file into the kernel's memory, with a newline after a last line
 * that lacks one and past a byte-order mark: where it is (`input`), and its
 * lines (input[start, end)). Undefined for an empty file, one past
 * LARGEST_FILE, or one the memory cannot hold. I/O errors throw.
 */
export function readRunFile(exports: KernelExports, path: string): { input: number; start: number; end: number } | undefined {
  const descriptor = openSync(path, 'r');
  try {
    const size = fstatSync(descriptor).size;
    if (size === 0 || size > LARGEST_FILE) return undefined;
    const input = reserveInput(exports, size + 1);
    if (input === undefined) return undefined;
    const view = new Uint8Array(exports.memory.buffer, input, size + 1);
    let filled = 0;
    while (filled < size) {
      const bytesRead = readSync(descriptor, view, filled, size - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    // A file that changed size while read: the streaming reader takes it.
    if (filled !== size || readSync(descriptor, new Uint8Array(1), 0, 1, null) !== 0) return undefined;
    const start = size >= 3 && view[0] === 0xef && view[1] === 0xbb && view[2] === 0xbf ? 3 : 0;
    let end = size;
    if (view[size - 1] !== 10) view[end++] = 10;
    return end > start ? { input, start, end } : undefined;
  } finally {
    closeSync(descriptor);
  }
}
