import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deriveRun } from './derive-run.js';
import { generateCollection, type CollectionShape } from './generate-collection.js';
import { median, timeCommands, type Timed } from './time-command.js';

export interface ManyRunsOptions {
  readonly trecEval: string;
  readonly assayBin: string;
  readonly folder: string;
  readonly runs: number;
  readonly shape: CollectionShape;
  readonly measures: readonly string[];
  readonly repeat: number;
  /** A collection of official runs to time instead of the generated one. */
  readonly official?: { readonly qrels: string; readonly runs: readonly string[] };
}

/**
 * Scores many runs against one qrels file, as a shared task does: one
 * `assay ir-metrics QRELS RUN...` process against a loop of trec_eval
 * processes (one a run) and a loop of `assay ir-metrics` processes, in
 * alternating rounds. All three must print the same bytes.
 */
export async function benchManyRuns(options: ManyRunsOptions): Promise<void> {
  const { shape, official } = options;
  const stem = `many-q${shape.queries}-d${shape.documentsPerQuery}-j${shape.judgedPerQuery}-s${shape.seed}`;
  const qrels = official?.qrels ?? join(options.folder, `${stem}.qrels`);
  const runs =
    official?.runs ??
    Array.from({ length: options.runs }, (_, index) => join(options.folder, `${stem}.run${String(index + 1).padStart(2, '0')}`));
  if (official === undefined && (!runs.every((run) => existsSync(run)) || !existsSync(qrels))) {
    console.log(`Generating ${options.runs} runs x ${shape.queries} queries x ${shape.documentsPerQuery} documents...`);
    const [first, ...others] = runs as [string, ...string[]];
    await generateCollection(qrels, first, shape);
    for (const [index, run] of others.entries()) {
      await deriveRun(first, run, { seed: shape.seed + index + 1, tag: `bench${index + 2}`, spread: 0.5 });
    }
  }
  const flags = ['-q', '-c', ...options.measures];
  const contenders: Record<string, () => Promise<Timed>> = {
    'trec_eval, a process a run': () => timeCommands(runs.map((run) => [options.trecEval, [...flags, qrels, run]])),
    // Through the shebang, as the package's bin starts.
    'assay, one process': () => timeCommands([[options.assayBin, ['ir-metrics', ...flags, qrels, ...runs]]]),
    'assay, a process a run': () => timeCommands(runs.map((run) => [options.assayBin, ['ir-metrics', ...flags, qrels, run]])),
  };
  const times = new Map<string, number[]>();
  const digests = new Map<string, string>();
  for (let round = 0; round < options.repeat; round++) {
    for (const [name, time] of Object.entries(contenders)) {
      const { seconds, digest } = await time();
      times.set(name, [...(times.get(name) ?? []), seconds]);
      digests.set(name, digest);
      console.log(`round ${round + 1}: ${name.padEnd(26)} ${seconds.toFixed(3)} s`);
    }
  }
  const medianOf = (name: string): number => median(times.get(name) ?? []);
  const loop = times.get('trec_eval, a process a run') ?? [];
  const collection =
    official === undefined
      ? `${options.runs} runs x ${shape.queries} queries x ${shape.documentsPerQuery} documents (${stem})`
      : `${runs.length} runs of ${dirname(runs[0] as string)} against ${official.qrels}`;
  console.log(`\n${collection}, -q -c, median of ${options.repeat}:`);
  for (const name of Object.keys(contenders)) {
    // Each round's ratio to the loop timed next to it, so that load on the machine moves both alike.
    const pairs = (times.get(name) ?? []).map((seconds, round) => seconds / (loop[round] as number));
    console.log(
      `${name.padEnd(26)} ${medianOf(name).toFixed(3)} s   ratio to trec_eval ${median(pairs).toFixed(2)}x (rounds ${Math.min(...pairs).toFixed(2)} to ${Math.max(...pairs).toFixed(2)})`,
    );
  }
  console.log(`outputs identical: ${new Set(digests.values()).size === 1 ? 'yes' : 'NO'}`);
  console.log('\nFor a whole-process comparison, time these two commands alternately:');
  console.log(`  assay:     ${options.assayBin} ir-metrics ${[...flags, qrels, ...runs].join(' ')}`);
  console.log(`  trec_eval: sh -c 'for r in ${runs.join(' ')}; do ${options.trecEval} ${flags.join(' ')} ${qrels} $r; done'`);
}
