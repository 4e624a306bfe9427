import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJsonLines } from '../../../shared/readers/jsonl-reader.js';
import type { ReaderEvent } from '../../../shared/readers/reader-event.js';
import { loadAll } from './factories.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

async function readAll(file: string): Promise<ReaderEvent[]> {
  const events: ReaderEvent[] = [];
  for await (const event of readJsonLines(file)) events.push(event);
  return events;
}

describe('readJsonLines', () => {
  let folder: TempFolder;
  beforeEach(async () => {
    folder = await createTempFolder();
  });
  afterEach(async () => {
    await folder.remove();
  });

  it('numbers rows by line, skipping blank lines, with CRLF, a BOM and no final newline', async () => {
    // Prepare
    const file = await folder.write('rows.jsonl', '\uFEFF{"request": "a"}\r\n\r\n   \r\n{"request": "b"}\r\n{"request": "c"}');

    // Act
    const events = await readAll(file);

    // Assess
    expect(events).toEqual([
      { kind: 'row', row: { line: 1, fields: { request: 'a' } } },
      { kind: 'row', row: { line: 4, fields: { request: 'b' } } },
      { kind: 'row', row: { line: 5, fields: { request: 'c' } } },
    ]);
  });

  it('reports a line that is not valid JSON and reads on', async () => {
    // Prepare
    const file = await folder.write('rows.jsonl', '{"request": "a"}\n{"request": "b",}\n{"request": "c"}\n');

    // Act
    const events = await readAll(file);

    // Assess
    expect(events.map((event) => event.kind)).toEqual(['row', 'bad-row', 'row']);
    const bad = events[1];
    expect(bad?.kind === 'bad-row' && bad.errors[0]).toMatchObject({
      file,
      line: 2,
      message: expect.stringMatching(/^not valid JSON/),
      fix: expect.stringContaining('one JSON object per line'),
    });
  });

  it.each([
    ['an array', '[1, 2]'],
    ['a string', '"request"'],
    ['a number', '42'],
    ['null', 'null'],
  ])('reports a line holding %s instead of an object', async (described, line) => {
    // Prepare
    const file = await folder.write('rows.jsonl', `${line}\n`);

    // Act
    const [event] = await readAll(file);

    // Assess
    expect(event?.kind === 'bad-row' && event.errors[0]?.message).toBe(`expected a JSON object, got ${described}`);
  });

  it('says how to read a file that holds the whole dataset as one JSON array', async () => {
    // Prepare: rows written as one array into a .jsonl file
    const file = await folder.write('rows.jsonl', `${JSON.stringify([{ request: 'a' }, { request: 'b' }])}\n`);

    // Act
    const [event] = await readAll(file);

    // Assess
    expect(event).toEqual({
      kind: 'bad-row',
      errors: [
        {
          file,
          line: 1,
          message: 'expected a JSON object, got an array',
          fix: 'write one JSON object per line ({"request": "...", ...}), with double-quoted keys and strings; a file that holds one JSON array of rows is read as JSON: name it .json, or give --format json',
        },
      ],
    });
  });

  it('reads a 5 MB field whole and keeps error messages short', async () => {
    // Prepare
    const huge = 'x'.repeat(5 * 1024 * 1024);
    const file = await folder.write('rows.jsonl', `${JSON.stringify({ request: 'q', response: huge })}\n{"request": "${huge}\n`);

    // Act
    const events = await readAll(file);

    // Assess
    const [good, bad] = events;
    expect(good?.kind === 'row' && (good.row.fields.response as string).length).toBe(huge.length);
    expect(bad?.kind === 'bad-row' && bad.errors[0]?.message.length).toBeLessThan(300);
  });

  it('loads the good rows of a file with a malformed line and counts both', async () => {
    // Prepare
    const file = await folder.write('rows.jsonl', '{"request": "a"}\nnot json\n{"request": "b"}\n');

    // Act
    const { cases, errors, counts } = await loadAll(file);

    // Assess
    expect(cases.map((evalCase) => evalCase.request)).toEqual(['a', 'b']);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.line).toBe(2);
    expect(counts).toMatchObject({ rows: 3, cases: 2, errors: 1 });
  });
});
