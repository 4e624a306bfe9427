import { stat } from 'node:fs/promises';
import { UsageError } from './usage-error.js';

/** Fails with a UsageError naming the file when it is missing, a folder, or unreadable. */
export async function assertReadableFile(path: string, role: string): Promise<void> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new UsageError(`The ${role} file ${path} is not a regular file`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT' ? `The ${role} file ${path} does not exist` : `Cannot read the ${role} file ${path} (${code ?? 'unknown error'})`,
    );
  }
}
