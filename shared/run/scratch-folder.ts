import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs `work` with a fresh folder under the system's temporary folder, removed afterwards whatever happens. */
export async function withScratchFolder<Value>(prefix: string, work: (folder: string) => Promise<Value>): Promise<Value> {
  const folder = await mkdtemp(join(tmpdir(), prefix));
  try {
    return await work(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
