import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { seed, wholeNumber } from './bench-options.js';

/**
 * Writes a large synthetic TREC collection for benchmarks: a run with
 * `documentsPerQuery` results for each of `queries` topics, and qrels judging
 * part of each topic's pool (some judged documents never retrieved, some
 * retrieved documents never judged), grades 0-3, with ties in the scores.
 * Deterministic: the same seed writes the same bytes.
 */
export interface CollectionShape {
  readonly queries: number;
  readonly documentsPerQuery: number;
  readonly judgedPerQuery: number;
  readonly seed: number;
}

/** The options of the two TREC benches (ir-metrics, trec-pipeline): a generated collection's shape, and the rounds timed. */
export const TREC_BENCH_OPTIONS = {
  queries: wholeNumber(1),
  runs: wholeNumber(1),
  documents: wholeNumber(1),
  judged: wholeNumber(1),
  repeat: wholeNumber(1),
  seed: seed(),
};

export async function generateCollection(qrelsPath: string, runPath: string, shape: CollectionShape): Promise<void> {
  const random = mulberry32(shape.seed);
  const qrels = createWriteStream(qrelsPath);
  const run = createWriteStream(runPath);
  for (let query = 0; query < shape.queries; query++) {
    const topicId = String(1000 + query);
    const pool = new Set<number>();
    while (pool.size < shape.documentsPerQuery + shape.judgedPerQuery / 2) pool.add(Math.floor(random() * 5_000_000));
    const documents = [...pool];
    const retrieved = documents.slice(0, shape.documentsPerQuery);
    let runLines = '';
    let score = 30;
    retrieved.forEach((document, index) => {
      // About one score in ten repeats the previous one, so tie-breaking is exercised.
      if (random() > 0.1) score -= random() * 0.02;
      runLines += `${topicId} Q0 D${document} ${index + 1} ${score.toFixed(6)} bench\n`;
    });
    await write(run, runLines);
    let qrelsLines = '';
    // Judge the top of the run more densely than the tail, plus documents the run missed.
    const judged = [
      ...retrieved.filter((_, index) => random() < (index < 100 ? 0.5 : 0.02)),
      ...documents.slice(shape.documentsPerQuery),
    ].slice(0, shape.judgedPerQuery);
    for (const document of judged) {
      const draw = random();
      const grade = draw < 0.55 ? 0 : draw < 0.8 ? 1 : draw < 0.93 ? 2 : 3;
      qrelsLines += `${topicId} 0 D${document} ${grade}\n`;
    }
    await write(qrels, qrelsLines);
  }
  qrels.end();
  run.end();
  await Promise.all([once(qrels, 'finish'), once(run, 'finish')]);
}

async function write(stream: WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

/** Small seeded PRNG (mulberry32): reproducible collections without a dependency. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
