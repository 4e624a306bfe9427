import { vi } from 'vitest';
import { main } from '../../cli/main.js';

export interface CliOutcome {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `assay ARGS...` in this process, capturing what it writes to stdout and stderr. */
export async function runCli(args: readonly string[]): Promise<CliOutcome> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const capture =
    (into: string[]) =>
    (chunk: string | Uint8Array): boolean => {
      into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    };
  const stdoutSpy = vi.spyOn(process.stdout, 'write').mockImplementation(capture(stdout) as typeof process.stdout.write);
  const stderrSpy = vi.spyOn(process.stderr, 'write').mockImplementation(capture(stderr) as typeof process.stderr.write);
  process.exitCode = undefined;
  try {
    const exitCode = await main(['node', 'assay', ...args]);
    return { exitCode, stdout: stdout.join(''), stderr: stderr.join('') };
  } finally {
    stdoutSpy.mockRestore();
    stderrSpy.mockRestore();
    process.exitCode = undefined;
  }
}
