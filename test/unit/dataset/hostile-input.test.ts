import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBoundedLines } from '../../../shared/readers/text-lines.js';
import { DEFAULT_ROW_LIMITS, nestsDeeperThan } from '../../../shared/readers/row-limits.js';
import type { InputError } from '../../../shared/schema/input-error.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';
import { loadAll } from './factories.js';

let folder: TempFolder;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  await folder.remove();
});

const deeplyNested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const lineAndField = (errors: readonly InputError[]) => errors.map((error) => [error.line, error.field ?? '', error.message]);

/** A JSONL line that is exactly `characters` long: a row whose response pads it out. */
function rowOfLength(request: string, characters: number): string {
  const empty = JSON.stringify({ request, response: '' });
  return JSON.stringify({ request, response: 'x'.repeat(characters - empty.length) });
}

const HOSTILE_LINES = [
  /* 1 */ JSON.stringify({ request_id: 'good-1', request: 'a good row', response: 'r' }),
  /* 2 */ '{"request": "broken", ',
  /* 3 */ `{"request": "deep", "meta": ${deeplyNested(10_000)}}`,
  /* 4 */ '{"__proto__": {"polluted": true}, "constructor": "c", "request": "prototype keys"}',
  /* 5 */ JSON.stringify({
    request_id: 'constructor',
    request: 'plain keys',
    engine: 'toString',
    constructor: 'c',
    toString: 't',
    hasOwnProperty: 'h',
    tags: { valueOf: 1 },
  }),
  /* 6 */ JSON.stringify({
    request_id: '__proto__',
    request: 'an id that is a prototype key',
    engine: 'hasOwnProperty',
    retrieved_context: [{ doc_uri: 'd', metadata: { constructor: 'm' } }],
  }),
  /* 7 */ '{"request": "nested key", "tags": {"deep": {"__proto__": 1}}}',
  /* 8 */ JSON.stringify({ request_id: 'good-1', request: 'a good row', response: 'again' }),
  /* 9 */ JSON.stringify({ request: 'engine named like a prototype', engine: '__proto__' }),
  /* 10 */ JSON.stringify({ request_id: 'good-2', request: 'another good row', engine: 'constructor', response: 'r' }),
];

describe('a hostile JSONL file', () => {
  it.each([
    ['in memory', undefined],
    ['through spill files', 'spill'],
  ])('loads the good rows and gives every bad row an error with its line (%s)', async (_how, spill) => {
    // Prepare
    const file = await folder.write('hostile.jsonl', `${HOSTILE_LINES.join('\n')}\n`);
    const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();

    // Act
    const loaded = await loadAll(file, spill === undefined ? {} : { spillFolder: join(folder.path, spill) });

    // Assess
    const byId = new Map(loaded.cases.map((evalCase) => [evalCase.request_id, evalCase]));
    expect([...byId.keys()].sort()).toEqual(['__proto__', 'constructor', 'good-1', 'good-2']);
    expect(loaded.errors.map((error) => error.line).sort((a, b) => a - b)).toEqual([2, 3, 4, 7, 8, 9]);
    expect(
      lineAndField(loaded.errors.filter((error) => [3, 4, 7, 9].includes(error.line))).sort((a, b) => Number(a[0]) - Number(b[0])),
    ).toEqual([
      [3, '', 'the row nests arrays and objects more than 64 levels deep'],
      [4, '__proto__', 'the key "__proto__" cannot be kept as data'],
      [7, 'tags.deep.__proto__', 'the key "__proto__" cannot be kept as data'],
      [9, 'engine', 'the engine name "__proto__" cannot be used: engines are keys of the case'],
    ]);
    expect(byId.get('constructor')?.tags).toEqual({ constructor: 'c', toString: 't', hasOwnProperty: 'h', valueOf: 1 });
    expect(byId.get('__proto__')?.engines['hasOwnProperty' as string]?.retrieved_context[0]?.metadata).toEqual({ constructor: 'm' });
    expect(Object.keys(byId.get('good-2')?.engines ?? {})).toEqual(['constructor']);
    expect(loaded.counts.engines).toEqual({ default: 1, toString: 1, hasOwnProperty: 1, constructor: 1 });
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('row limits', () => {
  const limits = { maxRowCharacters: 1_000 };

  it('reads a JSONL row just under the size limit and rejects one just over it, then goes on', async () => {
    // Prepare
    const file = await folder.write(
      'sizes.jsonl',
      [rowOfLength('under', 1_000), rowOfLength('over', 1_001), rowOfLength('after', 50)].join('\n'),
    );

    // Act
    const loaded = await loadAll(file, { limits });

    // Assess
    expect(loaded.cases.map((evalCase) => evalCase.request)).toEqual(['under', 'after']);
    expect(loaded.errors).toEqual([
      {
        file,
        line: 2,
        message: 'the row is 1,001 characters long, more than the limit of 1,000 characters',
        fix: expect.stringMatching(/shorten the row/) as unknown as string,
      },
    ]);
  });

  it('does the same for the elements of a JSON array', async () => {
    const file = await folder.write(
      'sizes.json',
      `[\n${[rowOfLength('under', 1_000), rowOfLength('over', 5_000), deeplyNested(400), rowOfLength('after', 50)].join(',\n')}\n]\n`,
    );

    const loaded = await loadAll(file, { limits });

    expect(loaded.cases.map((evalCase) => evalCase.request)).toEqual(['under', 'after']);
    expect(lineAndField(loaded.errors)).toEqual([
      [3, '', 'the row is 5,000 characters long, more than the limit of 1,000 characters'],
      [4, '', 'the row nests arrays and objects more than 64 levels deep'],
    ]);
  });

  it('rejects a CSV cell that nests too deep and a column named __proto__', async () => {
    const file = await folder.write(
      'hostile.csv',
      `question,contexts,__proto__\nok,"[""a""]",\ndeep,"${deeplyNested(5_000)}",\nproto,"[""b""]",x\n`,
    );

    const loaded = await loadAll(file);

    expect(loaded.cases.map((evalCase) => evalCase.request)).toEqual(['ok']);
    expect(lineAndField(loaded.errors)).toEqual([
      [3, 'contexts', 'the row nests arrays and objects more than 64 levels deep'],
      [4, '__proto__', 'the key "__proto__" cannot be kept as data'],
    ]);
  });

  it('skips a CSV record over the size limit, a quoted multi-line one too, and keeps the lines of the rest', async () => {
    // Prepare: the record on line 3 spans lines 3-5; the one on line 9 is just over the limit
    const long = `"${'z'.repeat(700)}\n""quoted""\n${'z'.repeat(780)}"`;
    const file = await folder.write(
      'sizes.csv',
      `question,answer\nfirst,"a, with comma"\nlong,${long}\nafter,"b\nc"\n${'q'.repeat(999)},\n${'q'.repeat(1_001)},d\n`,
    );

    // Act
    const loaded = await loadAll(file, { limits });

    // Assess
    expect(loaded.cases.map((evalCase) => [evalCase.request.slice(0, 5), evalCase.engines.default?.response])).toEqual([
      ['first', 'a, with comma'],
      ['after', 'b\nc'],
      ['qqqqq', undefined],
    ]);
    expect(lineAndField(loaded.errors)).toEqual([
      [3, '', 'the row is 1,499 characters long, more than the limit of 1,000 characters'],
      [9, '', 'the row is 1,003 characters long, more than the limit of 1,000 characters'],
    ]);
    expect(loaded.counts.rows).toBe(5);
  });

  it('reports a CSV header over the size limit as a problem of the file', async () => {
    const file = await folder.write('header.csv', `question,${'h'.repeat(2_000)}\nq,a\n`);

    const loaded = await loadAll(file, { limits });

    expect(loaded.cases).toEqual([]);
    expect(loaded.errors.map((error) => [error.line, error.message])).toEqual([
      [1, 'the header line is 2,009 characters long, more than the limit of one row'],
    ]);
  });

  it('skips an oversized line as it streams, without assembling it', async () => {
    // Prepare: a 3 MB line under a 100-character limit; the reader reads 64 KiB chunks
    const file = await folder.write('long.txt', `short\n${'y'.repeat(3_000_000)}\nlast`);

    // Act
    const lines = [];
    for await (const line of readBoundedLines(file, 100)) lines.push(line);

    // Assess
    expect(lines).toEqual([
      { line: 1, text: 'short' },
      { line: 2, skippedCharacters: 3_000_000 },
      { line: 3, text: 'last' },
    ]);
  });

  it('reads a row of 40 MB under the default limits', async () => {
    // Prepare
    const big = rowOfLength('big', 40 * 1024 * 1024);
    const file = await folder.write('big.jsonl', `${big}\n${rowOfLength('small', 60)}\n`);

    // Act
    const loaded = await loadAll(file, { spillFolder: join(folder.path, 'spill') });

    // Assess
    expect(loaded.errors).toEqual([]);
    expect(loaded.cases.map((evalCase) => [evalCase.request, evalCase.engines.default?.response?.length])).toEqual(
      expect.arrayContaining([
        ['big', big.length - JSON.stringify({ request: 'big', response: '' }).length],
        ['small', expect.any(Number)],
      ]),
    );
  });

  it.each([
    ['a string holding brackets', `{"a": "${'['.repeat(100)}"}`, false],
    ['escaped quotes inside a string', `{"a": "\\"[[[", "b": [[1]]}`, false],
    ['a string that ends in an escaped backslash', `{"a": "\\\\", "b": ${deeplyNested(64)}}`, true],
    ['an unclosed string', `{"a": "${deeplyNested(70)}`, false],
    ['65 levels', deeplyNested(65), true],
    ['64 levels', deeplyNested(64), false],
  ])('counts nesting outside strings only: %s', (_described, text, tooDeep) => {
    expect(nestsDeeperThan(text, DEFAULT_ROW_LIMITS.maxDepth)).toBe(tooDeep);
  });
});
