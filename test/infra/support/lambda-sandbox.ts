import { fork, type ChildProcess } from 'node:child_process';
import { copyFile, cp, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { SynthesizedFunction } from './synthesized-template.js';

/**
 * A folder outside the repository laid out as the Lambda Node.js runtime
 * gives a function: its bundle as the task root, and beside it nothing but
 * the AWS SDK v3 (`@aws-sdk/*`, linked from the project's node_modules; each
 * package finds its own dependencies, `@smithy/*` and the like, from where it
 * really is). Each function runs in a child process of its own, as each has a
 * container of its own, with only the environment it is given.
 */
export interface LambdaSandbox {
  readonly folder: string;
  start(fn: SynthesizedFunction, environment: Readonly<Record<string, string>>): Promise<SandboxedFunction>;
  close(): Promise<void>;
}

export interface SandboxedFunction {
  readonly logicalId: string;
  /** Invokes the handler with the event; rejects with the runtime's errorType and errorMessage. */
  invoke(event: unknown): Promise<unknown>;
  /** Which of the specifiers a bare import from the bundle's folder would find. */
  resolvable(specifiers: readonly string[]): Promise<string[]>;
  /** What the function wrote to stdout and stderr: its logs. */
  logs(): string;
}

const runtimeMessageSchema = z.union([
  z.object({ kind: z.literal('ready') }),
  z.object({ kind: z.literal('init-error'), error: z.object({ errorType: z.string(), errorMessage: z.string() }) }),
  z.object({ id: z.number(), ok: z.literal(true), result: z.unknown() }),
  z.object({ id: z.number(), ok: z.literal(false), error: z.object({ errorType: z.string(), errorMessage: z.string() }) }),
]);

const RUNTIME_SCRIPT = join(import.meta.dirname, 'lambda-runtime.mjs');

export async function createLambdaSandbox(projectNodeModules: string): Promise<LambdaSandbox> {
  const folder = await mkdtemp(join(tmpdir(), 'assay-lambda-'));
  await mkdir(join(folder, 'node_modules', '@aws-sdk'), { recursive: true });
  for (const name of await readdir(join(projectNodeModules, '@aws-sdk'))) {
    await symlink(join(projectNodeModules, '@aws-sdk', name), join(folder, 'node_modules', '@aws-sdk', name), 'dir');
  }
  await copyFile(RUNTIME_SCRIPT, join(folder, 'runtime.mjs'));
  const children: ChildProcess[] = [];
  return {
    folder,
    async start(fn, environment) {
      const taskRoot = join(folder, 'functions', fn.logicalId);
      await cp(fn.assetFolder, taskRoot, { recursive: true });
      const child = fork(join(folder, 'runtime.mjs'), [taskRoot, fn.properties.Handler, String(fn.properties.Timeout)], {
        cwd: taskRoot,
        env: { ...environment, LAMBDA_TASK_ROOT: taskRoot, _HANDLER: fn.properties.Handler },
        // Not the test runner's loaders or flags: the runtime starts a plain node, with NODE_OPTIONS from the environment.
        execArgv: [],
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      });
      children.push(child);
      return connect(fn.logicalId, child);
    },
    async close() {
      for (const child of children) if (child.exitCode === null) child.kill();
      await Promise.all(
        children.map((child) =>
          child.exitCode === null && child.signalCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined,
        ),
      );
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** Waits for the function's cold start, then serves invocations one message at a time. */
async function connect(logicalId: string, child: ChildProcess): Promise<SandboxedFunction> {
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let next = 0;
  const started = new Promise<void>((resolve, reject) => {
    child.on('message', (raw) => {
      const message = runtimeMessageSchema.parse(raw);
      if ('kind' in message) {
        if (message.kind === 'ready') resolve();
        else
          reject(new Error(`${logicalId} failed to start: ${message.error.errorType}: ${message.error.errorMessage}\n${output.join('')}`));
        return;
      }
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.ok) waiting?.resolve(message.result);
      else
        waiting?.reject(
          Object.assign(new Error(`${logicalId}: ${message.error.errorType}: ${message.error.errorMessage}`), {
            name: message.error.errorType,
          }),
        );
    });
    child.on('exit', (code, signal) => {
      const exited = new Error(`${logicalId} exited (${code ?? signal})\n${output.join('')}`);
      reject(exited);
      for (const waiting of pending.values()) waiting.reject(exited);
      pending.clear();
    });
  });
  await started;
  const request = (message: Record<string, unknown>): Promise<unknown> =>
    new Promise((resolve, reject) => {
      next += 1;
      pending.set(next, { resolve, reject });
      child.send({ ...message, id: next });
    });
  return {
    logicalId,
    invoke: (event) => request({ kind: 'invoke', event }),
    resolvable: async (specifiers) => z.array(z.string()).parse(await request({ kind: 'resolve', specifiers })),
    logs: () => output.join(''),
  };
}
