import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A small file system in memory, mounted over a folder: a disk that fills up after a set number of KiB, as a real one does. */
export interface Tmpfs {
  readonly path: string;
  /** Gives it `kib` KiB in all, keeping what it holds: the space an operator frees. */
  resize(kib: number): Promise<void>;
  unmount(): Promise<void>;
}

/**
 * Mounts a tmpfs of `kib` KiB at `path` (made if missing), or says why it
 * cannot: mounting needs root with the right to mount (CAP_SYS_ADMIN),
 * which this machine's sessions and CI have and a developer's account
 * usually has not; a test then skips with that reason.
 */
export async function mountTmpfs(path: string, kib: number): Promise<Tmpfs | { readonly unavailable: string }> {
  if (process.getuid?.() !== 0) return { unavailable: 'mounting a tmpfs needs root' };
  await mkdir(path, { recursive: true });
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${kib}k`, 'tmpfs', path]);
  } catch (error) {
    return { unavailable: `mount -t tmpfs failed: ${(error as { stderr?: string }).stderr?.trim() || String(error)}` };
  }
  return {
    path,
    resize: async (size) => {
      await run('mount', ['-o', `remount,size=${size}k`, path]);
    },
    unmount: async () => {
      await run('umount', [path]);
    },
  };
}
