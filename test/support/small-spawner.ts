import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';

/**
 * A process started for a test by a small helper process instead of by the
 * test worker itself. Linux forks a process by copying its parent's page
 * tables: a test worker holding the modules and servers of many files (over
 * a gigabyte) pays tens of milliseconds of CPU for each process it starts,
 * and stalls meanwhile, where the helper (tens of megabytes) pays one. The
 * process is the same: its command, arguments, environment and working
 * folder, its output on pipes; it is killed with the signal asked for.
 */
export interface SpawnedProcess extends EventEmitter {
  readonly stdout: PassThrough;
  readonly stderr: PassThrough;
  /** Known once the process started. */
  readonly pid: number | undefined;
  kill(signal?: NodeJS.Signals): boolean;
}

type HelperReply =
  | { readonly kind: 'spawned'; readonly id: number; readonly pid: number }
  | { readonly kind: 'data'; readonly id: number; readonly stream: 'stdout' | 'stderr'; readonly chunk: Uint8Array }
  | { readonly kind: 'close'; readonly id: number; readonly code: number | null; readonly signal: NodeJS.Signals | null }
  | { readonly kind: 'error'; readonly id: number; readonly message: string; readonly code?: string };

class HelperSpawned extends EventEmitter implements SpawnedProcess {
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  pid: number | undefined;

  constructor(
    private readonly helper: ChildProcess,
    private readonly id: number,
  ) {
    super();
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    if (!this.helper.connected) return false;
    this.helper.send({ kind: 'kill', id: this.id, signal });
    return true;
  }

  receive(reply: HelperReply): void {
    if (reply.kind === 'spawned') {
      this.pid = reply.pid;
      this.emit('spawn');
    } else if (reply.kind === 'data') (reply.stream === 'stdout' ? this.stdout : this.stderr).write(Buffer.from(reply.chunk));
    else if (reply.kind === 'error') this.emit('error', Object.assign(new Error(reply.message), { code: reply.code }));
    else {
      this.stdout.end();
      this.stderr.end();
      this.emit('exit', reply.code, reply.signal);
      this.emit('close', reply.code, reply.signal);
    }
  }
}

let helper: ChildProcess | undefined;
let nextId = 0;
const running = new Map<number, HelperSpawned>();

/** Starts `command ARGS...` from the helper (started on first use, one a test worker), with output on pipes. */
export function spawnSmall(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): SpawnedProcess {
  const spawner = helperProcess();
  const id = nextId++;
  const spawned = new HelperSpawned(spawner, id);
  running.set(id, spawned);
  // Referenced while a process runs, so the worker waits for it; unreferenced when idle.
  spawner.channel?.ref();
  spawner.send({ kind: 'spawn', id, command, args, cwd: options.cwd, env: options.env });
  return spawned;
}

function helperProcess(): ChildProcess {
  if (helper?.connected === true) return helper;
  const started = fork(join(import.meta.dirname, 'small-spawner', 'helper.mjs'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  started.on('message', (reply: HelperReply) => {
    const spawned = running.get(reply.id);
    if (spawned === undefined) return;
    if (reply.kind === 'close' || reply.kind === 'error') running.delete(reply.id);
    spawned.receive(reply);
    if (running.size === 0) started.channel?.unref();
  });
  // A helper that dies takes its processes' outcomes with it: they fail, rather than wait for ever.
  started.once('exit', (code, signal) => {
    for (const [id, spawned] of running) {
      running.delete(id);
      spawned.receive({ kind: 'error', id, message: `the spawning helper exited (code ${code}, signal ${signal})` });
    }
  });
  started.unref();
  started.channel?.unref();
  helper = started;
  return started;
}
