import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJsonArray } from '../../../shared/readers/json-array-reader.js';
import { JsonArraySplitter, type SplitterOutput } from '../../../shared/readers/json-array-splitter.js';
import type { ReaderEvent } from '../../../shared/readers/reader-event.js';
import { loadAll } from './factories.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

function splitInChunks(text: string, cuts: readonly number[]): SplitterOutput[] {
  const splitter = new JsonArraySplitter();
  const outputs: SplitterOutput[] = [];
  let start = 0;
  for (const cut of [...cuts].sort((left, right) => left - right)) {
    outputs.push(...splitter.push(text.slice(start, cut)));
    start = cut;
  }
  outputs.push(...splitter.push(text.slice(start)), ...splitter.end());
  return outputs;
}

describe('JsonArraySplitter', () => {
  it('finds the same elements however the text is cut into chunks', () => {
    const row = fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.string(), fc.integer(), fc.array(fc.string(), { maxLength: 3 })), {
      maxKeys: 4,
    });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 6 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 8 }), (rows, pretty, cutSeeds) => {
        // Prepare
        const text = pretty ? JSON.stringify(rows, null, 2) : JSON.stringify(rows);
        const cuts = cutSeeds.map((seed) => seed % (text.length + 1));

        // Act
        const outputs = splitInChunks(text, cuts);

        // Assess
        const elements = outputs.map((output) => (output.kind === 'element' ? JSON.parse(output.text) : output));
        expect(elements).toEqual(rows);
      }),
    );
  });

  it('splits two elements with no comma between them the same however the text is cut', () => {
    // Prepare
    const text = '[\n  {"a": [1, {"b": "}"}]}\n  {"c": 2},\n  {"d": 3}\n]\n';
    const whole = splitInChunks(text, []);

    // Act
    const cutAnywhere = Array.from({ length: text.length + 1 }, (_, cut) => splitInChunks(text, [cut]));

    // Assess
    expect(whole.map((output) => (output.kind === 'element' ? JSON.parse(output.text) : output.kind))).toEqual([
      { a: [1, { b: '}' }] },
      'document-error',
      { c: 2 },
      { d: 3 },
    ]);
    for (const outputs of cutAnywhere) expect(outputs).toEqual(whole);
  });

  it('reads string runs, escapes, numbers and literals the same however the text is cut, a broken string included', () => {
    // Text with escapes, non-ASCII letters and surrogate pairs, next to numbers, literals and nested values.
    const text = fc.string({ unit: fc.constantFrom('a', 'é', '検', '🙂', '"', '\\', '\n', '\t', '/', ' ', '{', ']', ','), maxLength: 30 });
    const value = fc.oneof(
      text,
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
      fc.array(text, { maxLength: 2 }),
    );
    const row = fc.dictionary(fc.constantFrom('request', 'response', 'n', 'ok'), value, { minKeys: 1, maxKeys: 4 });
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 1, maxLength: 5 }),
        fc.nat(),
        fc.array(fc.nat(), { maxLength: 6 }),
        (rows, brokenSeed, cutSeeds) => {
          // Prepare: pretty-printed, and in one variant a raw line break inside the first string, which loses that element only
          const pretty = JSON.stringify(rows, null, 2);
          const firstString = pretty.indexOf('": "') + 4;
          const variants =
            brokenSeed % 2 === 0 || firstString < 4 ? [pretty] : [pretty, `${pretty.slice(0, firstString)}\n${pretty.slice(firstString)}`];

          for (const variant of variants) {
            // Act
            const whole = splitInChunks(variant, []);
            const cut = splitInChunks(
              variant,
              cutSeeds.map((seed) => seed % (variant.length + 1)),
            );

            // Assess
            expect(cut).toEqual(whole);
            if (variant === pretty)
              expect(whole.map((output) => (output.kind === 'element' ? JSON.parse(output.text) : output))).toEqual(rows);
          }
        },
      ),
      { numRuns: 300, seed: 22 },
    );
  });

  it('gives each element the line it starts on', () => {
    // Prepare
    const text = '[\n  {"a": 1},\n  {\n    "b": "x\\ny"\n  }, {"c": 3}\n]\n';

    // Act
    const outputs = splitInChunks(text, [5, 17]);

    // Assess
    expect(outputs.map((output) => output.line)).toEqual([2, 3, 5]);
  });
});

describe('readJsonArray', () => {
  let folder: TempFolder;
  beforeEach(async () => {
    folder = await createTempFolder();
  });
  afterEach(async () => {
    await folder.remove();
  });

  async function readText(text: string): Promise<ReaderEvent[]> {
    const file = await folder.write('rows.json', text);
    const events: ReaderEvent[] = [];
    for await (const event of readJsonArray(file)) events.push(event);
    return events;
  }

  function summary(events: readonly ReaderEvent[]): string[] {
    return events.map((event) =>
      event.kind === 'row'
        ? `row ${event.row.line}`
        : `${event.kind} ${event.kind === 'bad-row' ? event.errors[0]?.line : event.error.line}`,
    );
  }

  it('handles a byte order mark and CRLF line ends', async () => {
    // Prepare
    const text = '\uFEFF[\r\n{"request": "a"},\r\n{"request": "b\\r\\n"}\r\n]\r\n';

    // Act
    const events = await readText(text);

    // Assess
    expect(events).toEqual([
      { kind: 'row', row: { line: 2, fields: { request: 'a' } } },
      { kind: 'row', row: { line: 3, fields: { request: 'b\r\n' } } },
    ]);
  });

  it('reads an element holding a 5 MB string', async () => {
    // Prepare
    const huge = 'y'.repeat(5 * 1024 * 1024);

    // Act
    const events = await readText(JSON.stringify([{ request: 'q', response: huge }, { request: 'r' }]));

    // Assess
    expect(events.map((event) => event.kind === 'row' && String(event.row.fields.response ?? '').length)).toEqual([huge.length, 0]);
  });

  it('reports a malformed element and still loads the next ones', async () => {
    // Prepare
    const text = '[\n{"request": "a"},\n{"request": "b",},\n{"request": "c"}\n]';

    // Act
    const events = await readText(text);

    // Assess
    expect(summary(events)).toEqual(['row 2', 'bad-row 3', 'row 4']);
  });

  it.each([
    ['one object a line', '[\n{"request": "a"}\n{"request": "b"},\n{"request": "c"}\n]', ['row 2', 'file-error 3', 'row 3', 'row 4']],
    ['pretty-printed', '[\n  {\n    "request": "a"\n  }\n  {\n    "request": "b"\n  }\n]', ['row 2', 'file-error 5', 'row 5']],
    ['on one line, before an array', '[{"request": "a"} ["b"]]', ['row 1', 'file-error 1', 'bad-row 1']],
  ])('reads both elements when the comma between them is missing (%s), with an error at the second', async (_layout, text, expected) => {
    // Act
    const events = await readText(text);

    // Assess
    expect(summary(events)).toEqual(expected);
    const error = events.find((event) => event.kind === 'file-error');
    expect(error?.kind === 'file-error' && error.error).toMatchObject({
      message: 'a comma is missing between this element and the one before it; both are read',
      fix: 'put a comma after each element of the array but the last',
    });
  });

  it.each([
    ['a bracket that closes the wrong opener', '[\n{"request": ["a"},\n{"request": "b"}\n]'],
    ['a string left open at the end of its line', '[\n{"request": "a},\n{"request": "b"}\n]'],
    ['an element that is not an object', '[\n42,\n{"request": "b"}\n]'],
  ])('recovers from %s', async (_problem, text) => {
    // Act
    const events = await readText(text);

    // Assess
    expect(summary(events)).toEqual(['bad-row 2', 'row 3']);
  });

  it('recovers from a broken string in a pretty-printed array at the next element, not at a nested object', async () => {
    // Prepare
    const text = [
      '[',
      '  {',
      '    "request": "a,',
      '    "retrieved_context": [',
      '      {"content": "x"},',
      '      {"content": "y"}',
      '    ]',
      '  },',
      '  {',
      '    "request": "b"',
      '  }',
      ']',
    ].join('\n');

    // Act
    const events = await readText(text);

    // Assess
    expect(summary(events)).toEqual(['bad-row 2', 'row 9']);
  });

  it('reports a truncated array at the element it cuts, after loading the complete ones', async () => {
    // Prepare
    const text = '[\n{"request": "a"},\n{"request": "b", "response": "cut he';

    // Act
    const events = await readText(text);

    // Assess
    expect(summary(events)).toEqual(['row 2', 'file-error 3']);
    expect(events[1]?.kind === 'file-error' && events[1].error.message).toMatch(/truncated/);
  });

  it.each([
    ['an empty file', '', /the file is empty/],
    ['a file of blank lines', '\n  \n', /the file is empty/],
    ['a top-level number', '42', /expected a JSON array of rows, found a number/],
    ['a top-level string', '"rows"', /found a string/],
    ['an object without rows', '{"name": "suite", "version": 2}', /holds no array of rows/],
    ['JSONL in a .json file', '{"data": []}\n{"request": "b"}', /a second JSON value/],
  ])('reports %s as a file error', async (_described, text, message) => {
    // Act
    const events = await readText(text);

    // Assess
    const fileErrors = events.filter((event) => event.kind === 'file-error');
    expect(fileErrors).toHaveLength(1);
    expect(fileErrors[0]?.kind === 'file-error' && fileErrors[0].error.message).toMatch(message);
  });

  it.each(['data', 'examples', 'rows', 'test_cases'])('reads the rows of an object holding them under "%s"', async (key) => {
    // Prepare
    const text = `{"name": "suite [1]", "${key}": [{"request": "a"}, {"request": "b"}], "notes": {"rows": 1}}`;

    // Act
    const events = await readText(text);

    // Assess
    expect(events.map((event) => event.kind === 'row' && event.row.fields.request)).toEqual(['a', 'b']);
  });

  it('loads an empty array as a file with no rows', async () => {
    // Prepare
    const file = await folder.write('empty.json', '[]');

    // Act
    const { errors, counts } = await loadAll(file);

    // Assess
    expect(errors.map((error) => error.message)).toEqual(['the file holds no rows']);
    expect(counts.rows).toBe(0);
  });
});
