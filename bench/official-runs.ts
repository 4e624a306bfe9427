import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A collection of official runs for the benches, given as a qrels file and a
 * folder of run files (`--qrels FILE --runs-folder DIR`): every file of the
 * folder is a run, in name order (hidden files and compressed ones left out:
 * gunzip the runs first). Two public sources (docs/benchmarks.md says how to
 * lay them out):
 * - TREC 2003 Robust: github.com/joaopalotti/trectools, examples/robust03
 *   (qrel/robust03_qrels.txt and runs/input.*.gz, 17 runs);
 * - TREC 2019 Deep Learning passages: github.com/naghmefarzi/llmjudge,
 *   trec-dl-2019/runs-compressed/deep/input.*.gz (37 runs) and
 *   data/dl2019/2019qrels-pass.txt.
 * Undefined when neither option is given; exits with a message when only one
 * is or they name nothing to read.
 */
export function officialRuns(qrels: string | undefined, runsFolder: string | undefined): { qrels: string; runs: string[] } | undefined {
  if (qrels === undefined && runsFolder === undefined) return undefined;
  if (qrels === undefined || runsFolder === undefined || !existsSync(qrels) || !existsSync(runsFolder)) {
    console.error(
      'Give both --qrels FILE and --runs-folder DIR (a folder holding only run files, uncompressed), or neither for the generated collection.',
    );
    process.exit(2);
  }
  const runs = readdirSync(runsFolder)
    .filter((name) => !name.startsWith('.') && !/\.(gz|bz2|xz|zip)$/.test(name))
    .sort()
    .map((name) => join(runsFolder, name))
    .filter((path) => statSync(path).isFile());
  if (runs.length === 0) {
    console.error(`No run file in ${runsFolder}`);
    process.exit(2);
  }
  return { qrels, runs };
}
