import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/**
 * A process that nobody reaps while the test goes on: once it exits or is
 * killed it stays a zombie, still answering signal 0, as the node process of a
 * killed `npx assay run` stays under a PID 1 that reaps no orphans (many
 * containers run without an init). Its parent is a node process blocked in a
 * read of its standard input, so the parent's event loop never waits on the
 * child; closing that input (`release`) lets it reap the child and exit, so no
 * zombie outlives the test. The child leads a process group of its own, as a
 * command started in a terminal does, and its id comes back on descriptor 3.
 */
export interface UnreapedProcess {
  readonly pid: number;
  /** The child's standard output; its standard error is dropped. */
  readonly stdout: Readable;
  /** Lets the parent reap the child (which must have ended, or it waits for it) and exit. */
  release(): Promise<void>;
}

const UNREAPING_PARENT = `
const { spawn } = require('node:child_process');
const { readSync, writeSync } = require('node:fs');
const [command, ...args] = process.argv.slice(1);
const child = spawn(command, args, { stdio: 'inherit', detached: true });
writeSync(3, child.pid + '\\n');
try { readSync(0, Buffer.alloc(1)); } catch {}
`;

export async function spawnUnreaped(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<UnreapedProcess> {
  const parent = spawn(process.execPath, ['-e', UNREAPING_PARENT, command, ...args], {
    ...options,
    stdio: ['pipe', 'pipe', 'ignore', 'pipe'],
  });
  const exited = once(parent, 'exit');
  const pidLine = await new Promise<string>((resolve) => createInterface({ input: parent.stdio[3] as Readable }).once('line', resolve));
  const pid = Number(pidLine);
  const stdout = parent.stdout;
  if (!Number.isInteger(pid) || stdout === null) throw new Error(`the unreaping parent did not start ${command}`);
  return {
    pid,
    stdout,
    release: async () => {
      parent.stdin?.end();
      await exited;
    },
  };
}
