import { relative } from 'node:path';
import { BaseSequencer, type TestSequencerConstructor, type TestSpecification } from 'vitest/node';

/**
 * A vitest sequencer that starts the slowest files first. Vitest does that
 * itself from the durations it cached on an earlier run; on a fresh clone it
 * has none, and starts the largest files first, so a small slow file (a
 * synthesis, a fault run) may start last and end the suite alone. Where no
 * file of a project has a cached duration, the files `slowest` lists (paths
 * from the root, slowest first) go first in their project, in that order;
 * the rest keep vitest's order.
 */
export function slowestFirst(slowest: readonly string[]): TestSequencerConstructor {
  return class SlowestFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      const root = this.ctx.config.root;
      const path = (spec: TestSpecification): string => relative(root, spec.moduleId);
      const timed = (spec: TestSpecification): boolean =>
        this.ctx.cache.getFileTestResults(`${spec.project.name}:${path(spec)}`) !== undefined;
      const projects = [...new Set(sorted.map((spec) => spec.project.name))];
      return projects.flatMap((name) => {
        const files = sorted.filter((spec) => spec.project.name === name);
        if (files.some(timed)) return files;
        const rank = (spec: TestSpecification): number => {
          const at = slowest.indexOf(path(spec));
          return at < 0 ? slowest.length : at;
        };
        return [...files].sort((left, right) => rank(left) - rank(right));
      });
    }
  };
}
