// The small spawner's process (small-spawner.ts): it starts the processes its parent asks for and
// relays their output, exit and errors, and the signals sent to them. Its parent is a test worker
// of hundreds of megabytes, which pays for every fork in proportion to its size; this process is a
// few tens of megabytes, so its forks cost a millisecond.
import { spawn } from 'node:child_process';

const children = new Map();

process.on('message', (message) => {
  if (message.kind === 'kill') {
    children.get(message.id)?.kill(message.signal);
    return;
  }
  const { id, command, args, cwd, env } = message;
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.set(id, child);
  const send = (reply) => {
    if (process.connected) process.send(reply);
  };
  child.once('spawn', () => send({ kind: 'spawned', id, pid: child.pid }));
  child.stdout.on('data', (chunk) => send({ kind: 'data', id, stream: 'stdout', chunk }));
  child.stderr.on('data', (chunk) => send({ kind: 'data', id, stream: 'stderr', chunk }));
  child.once('error', (error) => {
    children.delete(id);
    send({ kind: 'error', id, message: error.message, code: error.code });
  });
  child.once('close', (code, signal) => {
    children.delete(id);
    send({ kind: 'close', id, code, signal });
  });
});

// The test worker went away: so do the processes it started.
process.once('disconnect', () => {
  for (const child of children.values()) child.kill('SIGKILL');
  process.exit(0);
});
