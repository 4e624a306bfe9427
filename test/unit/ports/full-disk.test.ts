import { describe, expect, it } from 'vitest';
import { rethrown, thrownOnThread } from '../../../cli/threads/thrown-on-thread.js';
import { fullDiskOf, fullDiskText, StoreUnwritableError, unwritableOr } from '../../../shared/ports/full-disk.js';

/** An error as node:fs throws it: its message starts with the code, and `code` holds it. */
function fileSystemError(code: string, syscall = 'write'): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: the file system refused, ${syscall}`), { code, errno: -28, syscall });
}

describe('fullDiskOf', () => {
  it.each([
    ['ENOSPC', 'no space is left on its device'],
    ['EDQUOT', 'the disk quota there is used up'],
    ['EROFS', 'its file system is mounted read-only'],
  ])('finds %s and says what it means', (code, reason) => {
    // Act
    const found = fullDiskOf(fileSystemError(code));

    // Assess
    expect(found).toEqual({ code, reason, message: `${code}: the file system refused, write`, named: false });
  });

  it('finds it in a cause, and keeps the message of the outermost error, which says most', () => {
    // Prepare: a step's error wrapping a store's, wrapping the file system's
    const error = new Error('the case could not be stored', { cause: new Error('put failed', { cause: fileSystemError('ENOSPC') }) });

    // Act
    const found = fullDiskOf(error);

    // Assess
    expect(found).toEqual({
      code: 'ENOSPC',
      reason: 'no space is left on its device',
      message: 'the case could not be stored',
      named: false,
    });
  });

  it.each([
    ['a missing file', fileSystemError('ENOENT', 'open')],
    ['a connection reset', fileSystemError('ECONNRESET', 'read')],
    ['a plain error', new Error('ENOSPC in a message is no code')],
    ['a string', 'ENOSPC'],
    ['undefined', undefined],
  ])('finds nothing in %s', (_name, error) => {
    expect(fullDiskOf(error)).toBeUndefined();
  });

  it('stops on an error that is its own cause', () => {
    // Prepare
    const looped = new Error('loop');
    Object.assign(looped, { cause: looped });

    // Act, Assess
    expect(fullDiskOf(looped)).toBeUndefined();
  });
});

describe('fullDiskText', () => {
  it("keeps a message that names the file, as node:fs's errors of a path do", () => {
    // Prepare: a failed open names its file in its message and in `path`
    const error = Object.assign(fileSystemError('ENOSPC', 'open'), { path: '/out/report.json' });

    // Act
    const full = fullDiskOf(error);

    // Assess
    expect(full === undefined ? '' : fullDiskText(full, '/tmp')).toBe('ENOSPC: the file system refused, open');
  });

  it('says where scratch files go when the write named no file (a stream or an open file)', () => {
    // Act
    const full = fullDiskOf(fileSystemError('ENOSPC'));

    // Assess
    expect(full === undefined ? '' : fullDiskText(full, '/var/tmp')).toBe(
      'ENOSPC: the file system refused, write (to a scratch file in the temp folder, /var/tmp; TMPDIR moves it)',
    );
  });

  it("keeps a store's message, which names the store, also once it crossed from a thread", () => {
    // Prepare
    const error = unwritableOr('/data/.assay', 'k.json', fileSystemError('ENOSPC'));

    // Act
    const full = fullDiskOf(rethrown(structuredClone(thrownOnThread(error))));

    // Assess
    expect(full === undefined ? '' : fullDiskText(full, '/tmp')).toBe(
      'the store /data/.assay could not write k.json: no space is left on its device (ENOSPC)',
    );
  });
});

describe('unwritableOr', () => {
  it("turns a full disk into an error naming the store and the key, with the file system's code and cause", () => {
    // Prepare
    const cause = fileSystemError('ENOSPC');

    // Act
    const error = unwritableOr('/data/.assay', 'runs/r-1/results/ab/q1.json', cause);

    // Assess
    expect(error).toBeInstanceOf(StoreUnwritableError);
    expect((error as StoreUnwritableError).message).toBe(
      'the store /data/.assay could not write runs/r-1/results/ab/q1.json: no space is left on its device (ENOSPC)',
    );
    expect((error as StoreUnwritableError).code).toBe('ENOSPC');
    expect((error as StoreUnwritableError).cause).toBe(cause);
    expect(fullDiskOf(error)?.code).toBe('ENOSPC');
  });

  it('gives any other error back as it came', () => {
    // Prepare
    const other = fileSystemError('EACCES', 'open');

    // Act, Assess
    expect(unwritableOr('/data/.assay', 'k', other)).toBe(other);
    expect(unwritableOr('/data/.assay', 'k', 'text')).toBe('text');
  });
});

describe('a full disk met on a worker thread', () => {
  it('is still one on the main thread: its code crosses with its message', () => {
    // Prepare
    const onThread = unwritableOr('/data/.assay', 'runs/r-1/results/ab/q1.json', fileSystemError('ENOSPC'));

    // Act: what the thread posts, structured-cloned, thrown again on this side
    const crossed = rethrown(structuredClone(thrownOnThread(onThread)));

    // Assess
    expect(crossed.message).toBe((onThread as Error).message);
    expect(fullDiskOf(crossed)).toEqual({
      code: 'ENOSPC',
      reason: 'no space is left on its device',
      message: 'the store /data/.assay could not write runs/r-1/results/ab/q1.json: no space is left on its device (ENOSPC)',
      named: true,
    });
  });

  it('carries no code for an error that had none', () => {
    // Act
    const crossed = rethrown(structuredClone(thrownOnThread(new Error('a bug'))));

    // Assess
    expect(crossed.message).toBe('a bug');
    expect('code' in crossed).toBe(false);
  });
});
