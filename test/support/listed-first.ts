import { relative } from 'node:path';
import { BaseSequencer, type TestSequencerConstructor, type TestSpecification } from 'vitest/node';

/**
 * A vitest sequencer that starts the files `first` lists (paths from the root)
 * before the others of their group of projects (sequence.groupOrder), in that
 * order, whatever their project; the rest keep vitest's order. Vitest starts
 * the files it timed longest first, from the durations it cached on an
 * earlier run; on a fresh clone it has none and starts the largest files
 * first, project by project, so a small slow file (a synthesis, a fault run)
 * may start last and end the suite alone, and the files that mostly wait
 * (an emulated stack polling its queues) may all start together while a core
 * idles. Where vitest has timed every file of a group, its order stands.
 */
export function listedFirst(first: readonly string[]): TestSequencerConstructor {
  return class ListedFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      const root = this.ctx.config.root;
      const path = (spec: TestSpecification): string => relative(root, spec.moduleId);
      const timed = (spec: TestSpecification): boolean =>
        this.ctx.cache.getFileTestResults(`${spec.project.name}:${path(spec)}`) !== undefined;
      const rank = (spec: TestSpecification): number => {
        const at = first.indexOf(path(spec));
        return at < 0 ? first.length : at;
      };
      const groups = [...new Set(sorted.map((spec) => spec.project.config.sequence.groupOrder))];
      return groups.flatMap((group) => {
        const files = sorted.filter((spec) => spec.project.config.sequence.groupOrder === group);
        if (files.every(timed)) return files;
        return [...files].sort((left, right) => rank(left) - rank(right));
      });
    }
  };
}
