import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ObjectStore } from '../../shared/ports/object-store.js';

/**
 * Copies report files from the store into `outFolder` (--out). Each file is
 * downloaded into a folder this call creates (mkdtemp: a new name, private
 * to this process) and then renamed into place. A rename replaces whatever
 * has the name, a symbolic link included, instead of writing through it, so
 * a link planted at `--out/report.json` cannot make assay overwrite the file
 * it points to. `outFolder` itself may be a link: the user chose it.
 * Returns the paths written, in the order of `names`; a file the store lacks
 * is skipped.
 */
export async function copyReportFiles(
  store: ObjectStore,
  keyOf: (name: string) => string,
  names: readonly string[],
  outFolder: string,
): Promise<string[]> {
  await mkdir(outFolder, { recursive: true });
  const staging = await mkdtemp(join(outFolder, '.assay-report-'));
  const files: string[] = [];
  try {
    for (const name of names) {
      const staged = join(staging, name);
      if (!(await store.download(keyOf(name), staged))) continue;
      const path = join(outFolder, name);
      await rename(staged, path);
      files.push(path);
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return files;
}
