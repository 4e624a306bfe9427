import { readOrReport } from './trec-inputs.js';
import { readRunLines, type RunFileLines } from './trec-run-lines.js';
import { TrecRunSpill } from './trec-run-spill.js';

/** What spilling one run file found: its lines, their errors, and its tags in the order it first uses them. */
export type SpilledRunFile = RunFileLines;

/** Spills a collection's run files (index = position) into `folder` in `partitions` partitions each: one after another, or several at once. */
export type RunSpiller = (runs: readonly string[], folder: string, partitions: number) => Promise<SpilledRunFile[]>;

/** The run files spilled one after another, in this thread. */
export const spillRunsInTurn: RunSpiller = async (runs, folder, partitions) => {
  const spilled: SpilledRunFile[] = [];
  for (const [index, file] of runs.entries()) spilled.push(await spillRunFile(file, index, folder, partitions));
  return spilled;
};

/** One run file spilled (TrecRunSpill); a file that cannot be read is one error. */
export async function spillRunFile(file: string, fileIndex: number, folder: string, partitions: number): Promise<SpilledRunFile> {
  return readOrReport(
    file,
    async (path) => {
      const spill = new TrecRunSpill(folder, partitions, fileIndex);
      const { rows, errors, tags } = await readRunLines(path, spill);
      await spill.flush();
      return { rows, errors, tags };
    },
    { rows: 0, errors: [], tags: [] },
  );
}
