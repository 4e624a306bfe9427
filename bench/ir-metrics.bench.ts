import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateCollection, type CollectionShape } from './generate-collection.js';

/**
 * Times `assay ir-metrics` against a trec_eval binary on a large generated
 * collection and checks that both print the same bytes.
 *
 *   npm run bench -- --trec-eval /path/to/trec_eval [--queries 10000] [--documents 1000] [--repeat 3]
 *
 * trec_eval is not part of this repository: build it from its public source
 * anywhere outside the repository and pass its path (or set TREC_EVAL).
 * The collection is written once to bench/.data/ (ignored by git) and reused.
 */
const { values } = parseArgs({
  options: {
    'trec-eval': { type: 'string', default: process.env.TREC_EVAL },
    queries: { type: 'string', default: '10000' },
    documents: { type: 'string', default: '1000' },
    judged: { type: 'string', default: '200' },
    repeat: { type: 'string', default: '3' },
    seed: { type: 'string', default: '42' },
  },
});

const trecEval = values['trec-eval'];
if (trecEval === undefined || !existsSync(trecEval)) {
  console.error('Pass the path of a trec_eval binary with --trec-eval PATH (or TREC_EVAL=PATH).');
  process.exit(2);
}

const shape: CollectionShape = {
  queries: Number(values.queries),
  documentsPerQuery: Number(values.documents),
  judgedPerQuery: Number(values.judged),
  seed: Number(values.seed),
};
const folder = join(import.meta.dirname, '.data');
mkdirSync(folder, { recursive: true });
const stem = `q${shape.queries}-d${shape.documentsPerQuery}-j${shape.judgedPerQuery}-s${shape.seed}`;
const qrels = join(folder, `${stem}.qrels`);
const run = join(folder, `${stem}.run`);
if (!existsSync(qrels) || !existsSync(run)) {
  console.log(`Generating ${shape.queries} queries x ${shape.documentsPerQuery} documents...`);
  await generateCollection(qrels, run, shape);
}

const measures = [
  '-m', 'map', '-m', 'P.5,10,20', '-m', 'recall.5,10,100', '-m', 'ndcg', '-m', 'ndcg_cut.5,10,20',
  '-m', 'recip_rank', '-m', 'Rprec', '-m', 'num_rel', '-m', 'num_ret', '-m', 'num_rel_ret',
];
const assayBin = join(import.meta.dirname, '..', 'cli', 'bin.js');
const commands = {
  trec_eval: [trecEval, ['-q', ...measures, qrels, run]] as const,
  assay: [assayBin, ['ir-metrics', '-q', ...measures, qrels, run]] as const,
};

const times: Record<string, number[]> = { trec_eval: [], assay: [] };
const digests: Record<string, string> = {};
const repeat = Number(values.repeat);
for (let round = 0; round < repeat; round++) {
  // Alternate the two so that background load affects both alike.
  for (const [name, [command, args]] of Object.entries(commands)) {
    const { seconds, digest } = await timeCommand(command, [...args]);
    times[name]?.push(seconds);
    digests[name] = digest;
    console.log(`round ${round + 1}: ${name.padEnd(9)} ${seconds.toFixed(2)} s`);
  }
}

const median = (list: number[]): number => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] as number;
const assayMedian = median(times.assay ?? []);
const trecMedian = median(times.trec_eval ?? []);
console.log(`\ncollection: ${shape.queries} queries x ${shape.documentsPerQuery} documents (${stem})`);
console.log(`trec_eval median ${trecMedian.toFixed(2)} s, assay median ${assayMedian.toFixed(2)} s`);
console.log(`ratio assay / trec_eval = ${(assayMedian / trecMedian).toFixed(2)}x`);
console.log(`outputs identical: ${digests.assay === digests.trec_eval ? 'yes' : 'NO'}`);
await sizeOf(run);

function timeCommand(command: string, args: string[]): Promise<{ seconds: number; digest: string }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const hash = createHash('sha256');
    child.stdout.on('data', (chunk: Buffer) => hash.update(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${command} exited with ${code}`));
      else resolve({ seconds: Number(process.hrtime.bigint() - started) / 1e9, digest: hash.digest('hex') });
    });
  });
}

async function sizeOf(path: string): Promise<void> {
  let bytes = 0;
  for await (const chunk of createReadStream(path)) bytes += (chunk as Buffer).length;
  console.log(`run file: ${(bytes / 1e6).toFixed(0)} MB`);
}
