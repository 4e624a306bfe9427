import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachLineBytes } from '../../../shared/trec/line-reader.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

let folder: TempFolder;
beforeAll(async () => {
  folder = await createTempFolder();
});
afterAll(async () => {
  await folder.remove();
});

async function linesOf(file: string): Promise<[number, string][]> {
  const lines: [number, string][] = [];
  await forEachLineBytes(file, (buffer, start, end, lineNumber) => lines.push([lineNumber, buffer.toString('utf8', start, end)]));
  return lines;
}

describe('forEachLineBytes', () => {
  it('strips a byte-order mark and CRLF, and reads a last line without a newline', async () => {
    const file = await folder.write('small.txt', '\ufeffone\r\ntwo\n\nthree');
    expect(await linesOf(file)).toEqual([[1, 'one'], [2, 'two'], [3, ''], [4, 'three']]);
  });

  it('reads an empty file as no lines', async () => {
    const file = await folder.write('empty.txt', '');
    expect(await linesOf(file)).toEqual([]);
  });

  it('joins lines that span the 1 MiB read chunks, including a CRLF split across them', async () => {
    // Prepare: lines of varied length so that chunk edges fall inside lines, and a
    // line of 3 MiB that spans several chunks on its own.
    const lines: string[] = [];
    for (let index = 0; index < 40_000; index++) lines.push(`${index} Q0 document-${index * 7919} ${'x'.repeat(index % 53)}`);
    lines.push('y'.repeat(3 * 1024 * 1024));
    lines.push('last');
    const text = lines.join('\r\n');
    const file = await folder.write('large.txt', text);

    // Act
    const read = await linesOf(file);

    // Assess
    expect(read.length).toBe(lines.length);
    expect(read.map(([, line]) => line)).toEqual(lines);
    expect(read.at(-1)).toEqual([lines.length, 'last']);
  });
});
