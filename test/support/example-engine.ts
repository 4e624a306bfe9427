import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const root = join(import.meta.dirname, '..', '..');

export interface ExampleEngine {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts the example BM25 service (examples/engines/) as its own process on a free loopback port. */
export async function startExampleEngine(options: readonly string[] = []): Promise<ExampleEngine> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'examples', 'engines', 'bm25-server.ts'), '--port', '0', ...options],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout });
  const [line] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [''])])) as [string];
  lines.close();
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(line)?.[1];
  if (url === undefined) {
    child.kill();
    throw new Error(`the example engine did not start: ${line}`);
  }
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
