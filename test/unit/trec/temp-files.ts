import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A scratch folder for reader tests: write inputs with `write`, clean up with `remove`. */
export interface ScratchFolder {
  write(name: string, content: string | Uint8Array): Promise<string>;
  remove(): Promise<void>;
}

export async function createScratchFolder(): Promise<ScratchFolder> {
  const path = await mkdtemp(join(tmpdir(), 'assay-trec-'));
  return {
    async write(name, content) {
      const file = join(path, name);
      await writeFile(file, content);
      return file;
    },
    remove: () => rm(path, { recursive: true, force: true }),
  };
}
