import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  livenessOf,
  parseProcessStat,
  processLiveness,
  processStartTime,
  type ProcessFacts,
  type ProcessLiveness,
  type ProcessStat,
} from '../../../shared/run/process-liveness.js';

/** /proc/PID/stat's line for a process named `name`: the fields after the name up to the start time (field 22), then three more. */
function statLine(name: string, state: string, startTime: number): string {
  return `4242 (${name}) ${state} 1 4242 4242 0 -1 4194560 1602 0 0 0 31 7 0 0 20 0 11 0 ${startTime} 1190000640 14000 18446744073709551615\n`;
}

describe('parsing /proc/PID/stat', () => {
  it.each<[string, string, ProcessStat | undefined]>([
    ['a plain name', statLine('node', 'S', 987_654), { state: 'S', startTime: 987_654 }],
    ['a zombie', statLine('node', 'Z', 987_654), { state: 'Z', startTime: 987_654 }],
    ['a name with spaces', statLine('npm exec assay', 'R', 12), { state: 'R', startTime: 12 }],
    // Read up to the first ')' this name would give state "R" and start time 2 (the "(y" shifts every field).
    ['a name with spaces and parentheses that look like fields', statLine('x) R 1 2 (y', 'Z', 555), { state: 'Z', startTime: 555 }],
    ['a name that is a lone ")"', statLine(')', 'X', 7), { state: 'X', startTime: 7 }],
    ['a line cut before the start time', '4242 (node) S 1 4242 4242 0 -1\n', undefined],
    ['a start time that is no number', statLine('node', 'S', 1).replace(' 1 1190000640', ' soon 1190000640'), undefined],
    ['a state of more than one letter', statLine('node', 'SZ', 1), undefined],
    ['no parentheses', '4242 node S 1 4242', undefined],
    ['nothing', '', undefined],
  ])('reads %s', (_case, text, expected) => {
    expect(parseProcessStat(text)).toEqual(expected);
  });

  it.runIf(existsSync('/proc/self/stat'))('reads this process as running or sleeping, and its start time as /proc says it', () => {
    // The state is the main thread's: sleeping while a worker thread runs the test.
    const stat = parseProcessStat(readFileSync('/proc/self/stat', 'utf8'));

    expect(['R', 'S']).toContain(stat?.state);
    expect(processStartTime(process.pid)).toBe(stat?.startTime);
  });
});

describe('the liveness of a process', () => {
  const running: ProcessStat = { state: 'S', startTime: 5000 };
  it.each<[string, ProcessFacts, number | undefined, ProcessLiveness]>([
    ['running, started when recorded', { signalled: true, stat: running }, 5000, 'alive'],
    ['running, no start time recorded (a lease written before they were)', { signalled: true, stat: running }, undefined, 'alive'],
    ['running, no /proc entry to read (not Linux): signal 0 decides', { signalled: true, stat: undefined }, 5000, 'alive'],
    [
      'a zombie: exited, never reaped, still answering signal 0',
      { signalled: true, stat: { state: 'Z', startTime: 5000 } },
      5000,
      'zombie',
    ],
    ['dead, being torn down', { signalled: true, stat: { state: 'X', startTime: 5000 } }, undefined, 'zombie'],
    ['missing: signal 0 reaches no process', { signalled: false, stat: undefined }, 5000, 'missing'],
    ['its id reused by a process started later', { signalled: true, stat: { state: 'S', startTime: 9000 } }, 5000, 'reused'],
    ['its id reused by a zombie', { signalled: true, stat: { state: 'Z', startTime: 9000 } }, 5000, 'zombie'],
  ])('is %s', (_case, facts, startTime, expected) => {
    expect(livenessOf(facts, startTime)).toBe(expected);
  });

  it.runIf(existsSync('/proc/self/stat'))(
    'is read from this machine: this process alive, under another start time reused, an exited child missing',
    async () => {
      // Prepare: a child that has exited and been reaped
      const child = spawn(process.execPath, ['-e', '']);
      await once(child, 'exit');
      if (child.pid === undefined) throw new Error('the child process did not start');
      const exited = child.pid;
      const started = processStartTime(process.pid);

      // Assess
      expect(started).toBeTypeOf('number');
      expect(processLiveness(process.pid, started)).toBe('alive');
      expect(processLiveness(process.pid, (started ?? 0) + 1)).toBe('reused');
      expect(processLiveness(exited)).toBe('missing');
    },
  );
});
