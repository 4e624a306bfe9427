import { isKernelTrap, kernelInstance, readRunFile, type KernelExports } from '../trec/run-kernel.js';
import type { RunFileTopics, TopicRanking } from './run-file-topics.js';

let kernel: KernelExports | undefined;

/**
 * A run file's topics (RunFileTopics) read by the WebAssembly kernel
 * (kernels/trec-run-kernel.ts, `collect`), or undefined when the file is not
 * of the shape it reads: one tag, ASCII only, no blank or comment line, six
 * or more fields a line, a decimal score whose number the kernel writes as
 * JavaScript prints it (kernels/trec-run-kernel.ts, writeScore: scores of up
 * to 19 significant digits, exponents too, between about 10^-10 and 10^16
 * when longer than 15 digits), no document twice in a topic.
 * Such a file has no error to report, and the kernel gives what the
 * JavaScript reader (readRunLines, by the run-line rule of
 * shared/trec/run-line.ts) gives for it, byte for byte (the tests compare them);
 * every other file is the JavaScript reader's. One kernel a thread, its
 * memory reused from file to file. I/O errors throw.
 */
export function kernelRunTopics(path: string): RunFileTopics | undefined {
  kernel ??= kernelInstance();
  const exports = kernel;
  const loaded = readRunFile(exports, path);
  if (loaded === undefined) return undefined;
  let topics: number;
  try {
    exports.startCollection(loaded.end - loaded.start);
    if (exports.readLines(loaded.start, loaded.end) !== 0) return undefined;
    topics = exports.collect(loaded.start, loaded.end);
  } catch (error) {
    // Memory that could not grow: the JavaScript reader streams the file. The next file starts afresh.
    if (isKernelTrap(error)) return undefined;
    throw error;
  }
  if (topics < 0) return undefined;
  const memory = Buffer.from(exports.memory.buffer);
  const table = new Int32Array(exports.memory.buffer, exports.table(), topics * 4);
  const jsonAt = exports.json();
  // Copied out of the kernel's memory, which the next file reuses, into a buffer of its own.
  const json = new Uint8Array(exports.memory.buffer.slice(jsonAt, jsonAt + (topics === 0 ? 0 : (table[topics * 4 - 1] as number))));
  const rankings: TopicRanking[] = [];
  let rows = 0;
  let start = 0;
  for (let topic = 0; topic < topics; topic++) {
    // The kernel's table: per topic its id's start and length in the input, its document count, and where its JSON ends.
    const idStart = table[topic * 4] as number;
    const idLength = table[topic * 4 + 1] as number;
    const count = table[topic * 4 + 2] as number;
    const end = table[topic * 4 + 3] as number;
    rankings.push({ qid: memory.toString('latin1', loaded.input + idStart, loaded.input + idStart + idLength), tag: 0, count, start, end });
    rows += count;
    start = end;
  }
  const tag = memory.toString('latin1', loaded.input + exports.tagStart(), loaded.input + exports.tagEnd());
  return { rows, errors: [], tags: rows === 0 ? [] : [tag], repeats: [], rankings, json };
}
