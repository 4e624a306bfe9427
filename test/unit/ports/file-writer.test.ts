import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileWriter } from '../../../shared/ports/file-writer.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

let folder: TempFolder;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  await folder.remove();
});

/** More than a write stream holds before it asks its writer to wait (16 KiB). */
const LARGE = 'x'.repeat(64 * 1024);

describe('FileWriter', () => {
  it('writes its chunks in order, waiting when the file is behind, and closes', async () => {
    // Prepare
    const path = join(folder.path, 'lines.txt');
    const writer = new FileWriter(path);

    // Act
    for (let index = 0; index < 40; index++) await writer.write(`${index}:${LARGE}\n`);
    await writer.close();

    // Assess
    const lines = (await readFile(path, 'utf8')).split('\n').filter(Boolean);
    expect(lines.map((line) => line.split(':')[0])).toEqual(Array.from({ length: 40 }, (_, index) => String(index)));
  });

  it("throws a file's error from the writes after it and from close, however long after it came, and never waits for ever", async () => {
    // Prepare: a file that cannot be opened; small writes are taken without waiting until the stream has failed and closed
    const writer = new FileWriter(join(folder.path, 'no-such-folder', 'lines.txt'));
    let first: unknown;
    for (let attempt = 0; first === undefined && attempt < 200; attempt++) {
      first = await writer.write('a line\n').then(
        () => undefined,
        (error: unknown) => error,
      );
      if (first === undefined) await sleep(5);
    }

    // Act: a write and the close, both begun after the stream's error and its close were emitted
    const written = writer.write('another line\n');
    const closed = writer.close();

    // Assess
    expect(first).toMatchObject({ code: 'ENOENT' });
    await expect(written).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(closed).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('throws the error a write met while it waited for the file to catch up', async () => {
    // Prepare: the first write is larger than the stream holds, so it waits; the open fails meanwhile
    const writer = new FileWriter(join(folder.path, 'no-such-folder', 'lines.txt'));

    // Act
    const written = writer.write(LARGE);

    // Assess
    await expect(written).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(writer.close()).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
