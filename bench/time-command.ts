import { spawn } from 'node:child_process';
import { createHash, type Hash } from 'node:crypto';

export interface Timed {
  readonly seconds: number;
  /** SHA-256 of everything the commands printed on stdout, in order. */
  readonly digest: string;
}

/** Runs the commands one after another, as a shell loop would, timing them together. */
export async function timeCommands(commands: readonly (readonly [string, readonly string[]])[]): Promise<Timed> {
  const hash = createHash('sha256');
  const started = process.hrtime.bigint();
  for (const [command, args] of commands) await runInto(hash, command, args);
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, digest: hash.digest('hex') };
}

export function median(list: readonly number[]): number {
  return [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] as number;
}

function runInto(hash: Hash, command: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (chunk: Buffer) => hash.update(chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}`))));
  });
}
