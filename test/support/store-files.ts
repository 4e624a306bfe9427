import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Every file under `folder`, at any depth, with its text; an absent folder has none. */
export async function filesUnder(folder: string): Promise<{ path: string; text: string }[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  return Promise.all(files.map(async (path) => ({ path, text: await readFile(path, 'utf8') })));
}

/** The run ids a local store folder holds (its runs/ folder's entries); none when it has no runs/ folder. */
export async function storedRuns(store: string): Promise<string[]> {
  return readdir(join(store, 'runs')).catch(() => []);
}
