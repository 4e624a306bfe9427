import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { mulberry32 } from './generate-collection.js';

/**
 * Writes another system's run over the same pool: each score of `basePath`
 * moves by seeded noise of up to ±`spread` / 2, which reorders documents
 * within a few dozen ranks, so the runs differ but share the qrels' topics and
 * documents. Deterministic: the same seed writes the same bytes.
 */
export async function deriveRun(basePath: string, outPath: string, options: { seed: number; tag: string; spread: number }): Promise<void> {
  const random = mulberry32(options.seed);
  const out = createWriteStream(outPath);
  let batch = '';
  for await (const line of createInterface({ input: createReadStream(basePath), crlfDelay: Infinity })) {
    const [topicId, , document, rank, score] = line.split(' ');
    const moved = Number(score) + (random() - 0.5) * options.spread;
    batch += `${topicId} Q0 ${document} ${rank} ${moved.toFixed(6)} ${options.tag}\n`;
    if (batch.length > 1 << 16) {
      if (!out.write(batch)) await once(out, 'drain');
      batch = '';
    }
  }
  out.end(batch);
  await once(out, 'finish');
}
