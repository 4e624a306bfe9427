import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A scratch folder under the system temp dir; tests write their inputs here and remove it after. */
export interface TempFolder {
  path: string;
  /** Writes `content` (text or bytes) to `name` in the folder and returns the full path. */
  write(name: string, content: string | Uint8Array): Promise<string>;
  remove(): Promise<void>;
}

export async function createTempFolder(): Promise<TempFolder> {
  const path = await mkdtemp(join(tmpdir(), 'assay-test-'));
  return {
    path,
    async write(name, content) {
      const file = join(path, name);
      await writeFile(file, content);
      return file;
    },
    remove: () => rm(path, { recursive: true, force: true }),
  };
}
