import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

const BIN = join(import.meta.dirname, '..', '..', 'cli', 'bin.js');

/** An `assay view` process, started from the built CLI as a user starts it. */
export interface ViewProcess {
  readonly child: ChildProcess;
  /** The first line it printed on stdout. */
  readonly url: string;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Sends SIGINT, as Ctrl-C does, and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `assay view ARGS...` and resolves once its first stdout line, the URL, is out. */
export async function startViewProcess(args: readonly string[]): Promise<ViewProcess> {
  const child = spawn(process.execPath, [BIN, 'view', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = once(child, 'exit') as Promise<[number | null]>;
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0] ?? '');
    });
    void exited.then(([code]) => reject(new Error(`assay view exited ${code} before printing its URL: ${stderr}`)));
  });
  return {
    child,
    url,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGINT');
      return (await exited)[0];
    },
  };
}
