import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachLineRun } from '../../../shared/trec/byte-lines.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

let folder: TempFolder;
beforeAll(async () => {
  folder = await createTempFolder();
});
afterAll(async () => {
  await folder.remove();
});

/** The text of each run of lines forEachLineRun hands over, checking that every run ends with a newline. */
async function lineRunsOf(file: string): Promise<string[]> {
  const runs: string[] = [];
  await forEachLineRun(file, (buffer, start, end) => {
    expect(buffer[end - 1]).toBe(10);
    runs.push(buffer.toString('utf8', start, end));
  });
  return runs;
}

describe('forEachLineRun', () => {
  it.each([
    ['a byte-order mark, CRLF and a last line without a newline', '\ufeffone\r\ntwo\n\nthree', 'one\r\ntwo\n\nthree\n'],
    ['a last line with its newline', 'one\ntwo\n', 'one\ntwo\n'],
    ['a file of one short line without a newline', 'x', 'x\n'],
    ['a file holding only a byte-order mark', '\ufeff', ''],
  ])('hands over whole lines ending in a newline, with %s', async (_described, content, expected) => {
    // Prepare
    const file = await folder.write('runs.txt', content);

    // Act
    const runs = await lineRunsOf(file);

    // Assess
    expect(runs.join('')).toBe(expected);
  });

  it('reads an empty file as no lines', async () => {
    const file = await folder.write('empty-runs.txt', '');
    expect(await lineRunsOf(file)).toEqual([]);
  });

  it('keeps lines whole across its 1 MiB reads, a line longer than the buffer included', async () => {
    // Prepare: lines of varied length so that read edges fall inside lines, and a 3 MiB line
    const lines: string[] = [];
    for (let index = 0; index < 40_000; index++) lines.push(`${index} Q0 document-${index * 7919} ${'x'.repeat(index % 53)}`);
    lines.push('y'.repeat(3 * 1024 * 1024));
    lines.push('last');
    const file = await folder.write('large-runs.txt', lines.join('\n'));

    // Act
    const runs = await lineRunsOf(file);

    // Assess: more than one run, none splitting a line, together the whole file
    expect(runs.length).toBeGreaterThan(1);
    expect(runs.join('').split('\n').slice(0, -1)).toEqual(lines);
  });
});
