import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCsvRows } from '../../../shared/readers/csv-reader.js';
import type { ReaderEvent } from '../../../shared/readers/reader-event.js';
import { loadAll } from './factories.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

describe('readCsvRows', () => {
  let folder: TempFolder;
  beforeEach(async () => {
    folder = await createTempFolder();
  });
  afterEach(async () => {
    await folder.remove();
  });

  async function readText(text: string): Promise<ReaderEvent<string>[]> {
    const file = await folder.write('rows.csv', text);
    const events: ReaderEvent<string>[] = [];
    for await (const event of readCsvRows(file)) events.push(event);
    return events;
  }

  function lines(events: readonly ReaderEvent<string>[]): string[] {
    return events.map((event) =>
      event.kind === 'row'
        ? `row ${event.row.line}`
        : `${event.kind} ${event.kind === 'bad-row' ? event.errors[0]?.line : event.error.line}`,
    );
  }

  it('reads quoted fields holding commas, quotes and line breaks, numbering rows by their first line', async () => {
    // Prepare
    const text = 'question,answer\n"a, b","he said ""hi""\nthen left"\n\nc,d\n';

    // Act
    const events = await readText(text);

    // Assess
    expect(events).toEqual([
      { kind: 'row', row: { line: 2, fields: { question: 'a, b', answer: 'he said "hi"\nthen left' } } },
      { kind: 'row', row: { line: 5, fields: { question: 'c', answer: 'd' } } },
    ]);
  });

  it.each([
    // What Excel writes where the comma is the decimal mark: the fields may hold commas.
    [
      'semicolons',
      'question;answer;score\r\n"How, exactly?";"Like this; then that";0,75\r\n',
      { question: 'How, exactly?', answer: 'Like this; then that', score: '0,75' },
    ],
    ['tabs', 'question\tanswer\nHow, exactly?\tLike this; then that\n', { question: 'How, exactly?', answer: 'Like this; then that' }],
    ['commas, a header quoting semicolons', '"question;asked",answer\nq;1,a\n', { 'question;asked': 'q;1', answer: 'a' }],
    ['commas, a header of one column', 'question\nHow; exactly?\n', { question: 'How; exactly?' }],
  ])('reads a file delimited by %s, as its header line shows', async (_described, text, fields) => {
    // Act
    const events = await readText(text);

    // Assess
    expect(events).toEqual([{ kind: 'row', row: { line: 2, fields } }]);
  });

  it('handles a byte order mark and CRLF line ends', async () => {
    // Prepare
    const text = '\uFEFFquestion,answer\r\n"x\r\ny",1\r\nz,2';

    // Act
    const events = await readText(text);

    // Assess
    expect(events).toEqual([
      { kind: 'row', row: { line: 2, fields: { question: 'x\ny', answer: '1' } } },
      { kind: 'row', row: { line: 4, fields: { question: 'z', answer: '2' } } },
    ]);
  });

  it('reports each row with the wrong number of fields and reads the others', async () => {
    // Prepare
    const text = 'question,answer\na,1\nb,2,extra\nc\nd,4\n';

    // Act
    const events = await readText(text);

    // Assess
    expect(lines(events)).toEqual(['row 2', 'bad-row 3', 'bad-row 4', 'row 5']);
    expect(events[1]?.kind === 'bad-row' && events[1].errors[0]?.message).toMatch(/wrong number of fields/);
  });

  it('reports an unclosed quote at the row where it opens, once', async () => {
    // Prepare
    const text = 'question,answer\na,1\nb,"never closed\nc,3\n';

    // Act
    const events = await readText(text);

    // Assess
    expect(lines(events)).toEqual(['row 2', 'bad-row 3']);
    expect(events[1]?.kind === 'bad-row' && events[1].errors[0]).toMatchObject({
      message: expect.stringMatching(/never closed/),
      fix: expect.stringContaining('""'),
    });
  });

  it('reports a quote inside an unquoted field and goes on', async () => {
    // Prepare
    const text = 'question,answer\na,x"y\nb,2\n';

    // Act
    const events = await readText(text);

    // Assess
    expect(lines(events)).toEqual(['bad-row 2', 'row 3']);
  });

  it('refuses a header that names a column twice', async () => {
    // Prepare
    const text = 'question,question\na,b\n';

    // Act
    const events = await readText(text);

    // Assess
    expect(events).toEqual([
      { kind: 'file-error', error: expect.objectContaining({ line: 1, message: 'the header names the column "question" twice' }) },
    ]);
  });

  it('names an unnamed column, as a pandas index is written, and keeps it as a tag', async () => {
    // Prepare
    const file = await folder.write('rows.csv', ',question\n0,a\n');

    // Act
    const { cases } = await loadAll(file);

    // Assess
    expect(cases[0]?.tags).toEqual({ column_1: '0' });
  });

  it('reports a header-only file as holding no rows', async () => {
    // Prepare
    const file = await folder.write('rows.csv', 'question,answer\n');

    // Act
    const { errors } = await loadAll(file);

    // Assess
    expect(errors.map((error) => error.message)).toEqual(['the file holds no rows']);
  });
});
