import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachLineRun } from '../../../shared/trec/byte-lines.js';
import { readQrels } from '../../../shared/trec/qrels.js';
import { readRun } from '../../../shared/trec/run.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';
import { jsonLines, loadAll } from '../dataset/factories.js';

let folder: TempFolder;
beforeAll(async () => {
  folder = await createTempFolder();
});
afterAll(async () => {
  await folder.remove();
});

/** `text` encoded as Windows PowerShell 5 writes it with `>`: UTF-16LE behind its byte-order mark. */
function utf16le(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
}

/** `text` as UTF-16BE behind its byte-order mark. */
function utf16be(text: string): Buffer {
  return utf16le(text).swap16();
}

/** `text` as UTF-32LE behind its byte-order mark. */
function utf32le(text: string): Buffer {
  const codePoints = [0xfeff, ...[...text].map((character) => character.codePointAt(0) ?? 0)];
  const bytes = Buffer.alloc(codePoints.length * 4);
  for (const [index, codePoint] of codePoints.entries()) bytes.writeUInt32LE(codePoint, index * 4);
  return bytes;
}

/** How to convert a UTF-16 or UTF-32 file, as the input error says it. */
const convert = (encoding: string): string =>
  `save it as UTF-8, e.g. iconv -f ${encoding} -t UTF-8 FILE > FILE-utf8 (Windows PowerShell 5 writes UTF-16 with > and Out-File; give Out-File -Encoding utf8)`;

const ROWS = jsonLines([{ request: 'How do I rotate a key?' }, { request: 'What limits apply?' }]);

describe('a dataset file in an encoding other than UTF-8', () => {
  it.each([
    ['UTF-16LE', 'rows.jsonl', utf16le(ROWS), 'FF FE', convert('UTF-16')],
    ['UTF-16BE', 'rows-be.jsonl', utf16be(ROWS), 'FE FF', convert('UTF-16')],
    ['UTF-32LE', 'rows-32.jsonl', utf32le(ROWS), 'FF FE 00 00', convert('UTF-32')],
    ['UTF-16LE', 'rows.csv', utf16le('question\nHow do I rotate a key?\n'), 'FF FE', convert('UTF-16')],
    ['UTF-16LE', 'rows.json', utf16le(JSON.stringify([{ request: 'How do I rotate a key?' }])), 'FF FE', convert('UTF-16')],
    ['gzip-compressed', 'rows-gz.jsonl', gzipSync(ROWS), '1F 8B', 'decompress it first, e.g. gunzip -k FILE, and give the file it writes'],
  ])('is one input error for the whole file, saying it is %s and what to do (%s)', async (what, name, bytes, start, fix) => {
    // Prepare
    const file = await folder.write(name, bytes);

    // Act
    const { cases, errors } = await loadAll(file);

    // Assess: not one error per line naming NUL bytes, as reading it as UTF-8 gave
    expect(cases).toEqual([]);
    expect(errors).toEqual([
      {
        file,
        line: 0,
        message: `the file is ${what} (it starts with the bytes ${start}); assay reads UTF-8 text`,
        fix,
      },
    ]);
  });

  it('reads UTF-8 whole, a character whose bytes straddle two reads included', async () => {
    // Prepare: a four-byte character across the readers' 64 KiB reads
    const request = `${'a'.repeat((1 << 16) - 16)}🔑 rotate`;
    const file = await folder.write('straddling.jsonl', jsonLines([{ request }, { request: 'second' }]));

    // Act
    const { cases, errors } = await loadAll(file);

    // Assess
    expect(errors).toEqual([]);
    expect(cases.map((evalCase) => evalCase.request)).toEqual([request, 'second']);
  });
});

describe('a TREC file in an encoding other than UTF-8', () => {
  it('refuses UTF-16 qrels as a whole, in one error', async () => {
    // Prepare
    const file = await folder.write('qrels-16.txt', utf16le('301 0 d1 1\n301 0 d2 0\n'));

    // Act
    const result = await readQrels(file);

    // Assess
    expect(result).toEqual({
      ok: false,
      error: {
        file,
        line: 0,
        message: 'the file is UTF-16LE (it starts with the bytes FF FE); assay reads UTF-8 text',
        fix: convert('UTF-16'),
      },
    });
  });

  it('refuses a UTF-16 run file as a whole, in one error', async () => {
    // Prepare
    const file = await folder.write('run-16.txt', utf16be('301 Q0 d1 1 2.5 bm25\n'));

    // Act
    const result = await readRun(file);

    // Assess
    expect(result).toMatchObject({ ok: false, error: { file, line: 0, message: expect.stringContaining('the file is UTF-16BE') } });
  });

  it.each([
    ['one byte', 'x', 'x\n'],
    ['two bytes', 'x\n', 'x\n'],
    ['three bytes', 'ab\n', 'ab\n'],
  ])('still reads a UTF-8 file of %s', async (_described, content, expected) => {
    // Prepare: shorter than any byte-order mark it looks for
    const file = await folder.write(`short-${content.length}.txt`, content);
    const runs: string[] = [];

    // Act
    await forEachLineRun(file, (buffer, start, end) => runs.push(buffer.toString('utf8', start, end)));

    // Assess
    expect(runs.join('')).toBe(expected);
  });
});
