import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kernelRunTopics } from '../../../shared/trec-collection/run-topics-kernel.js';
import { readRunTopics, scriptRunTopics } from '../../../shared/trec-collection/trec-run-topics.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

const separator = fc.constantFrom(' ', ' ', ' ', '\t', '  ', ' \t', '\v', '\f');
/** Doubles of normal size (subnormal ones are left to the JavaScript reader). */
const normal = fc.double({ min: -100, max: 100, noNaN: true }).filter((value) => value === 0 || Math.abs(value) > 1e-290);
/**
 * Score texts of every decimal form: trailing and leading zeros, a bare point at either end, signs, ties, numbers near 10^-6
 * (JavaScript prints those below it with an exponent), exponents, and the full-precision doubles and float32 values that
 * neural rankers print, shortest (as JavaScript and Python print them) or not (17 digits, 20 decimals).
 */
const score = fc
  .oneof(
    fc.integer({ min: -4, max: 4 }).map((value) => (value / 2).toFixed(1)),
    normal.map((value) => value.toFixed(6)),
    fc.integer({ min: 1, max: 999_999_999 }).map((value) => String(value)),
    fc.constantFrom(
      '3',
      '3.0',
      '3.00',
      '-1.5',
      '.5',
      '5.',
      '007.250',
      '0',
      '0.000',
      '00',
      '0.000001',
      '0.0000010',
      '0.0000015',
      '-0.000002',
      '123456789012345',
      '1234567.89012345',
      '0.1',
      '0.30000000000000',
    ),
    fc.constantFrom(
      '2e0',
      '2.5E+1',
      '1e21',
      '1e-7',
      '-1.5e-7',
      '49.19109429178723',
      '-1.1279716491699219',
      '9.975090383917973e-05',
      '0.30000000000000004',
      '10.031979740362001',
      '0.10000000000000001',
      '0.30000000000000005',
    ),
    normal.map((value) => String(value)),
    fc.float({ min: -100, max: 100, noNaN: true }).map((value) => String(value)),
    normal.map((value) => (value / 1e5).toExponential().replace(/e-(\d)$/, 'e-0$1')),
    normal.map((value) => value.toPrecision(17)),
    normal.map((value) => value.toFixed(20)),
  )
  .map((text) => (/^-0*\.?0*(e.*)?$/i.test(text) ? text.slice(1) : text));

/** The significant digits of a decimal text, without leading or trailing zeros. */
function significantDigits(text: string): string {
  return text
    .replace(/^[-+]/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
}

/** Whether the kernel writes this score itself: at most 15 significant digits, or at most 19 for a number between 10^-8 and 10^15. */
function writable(text: string): boolean {
  const digits = significantDigits(text);
  const value = Math.abs(Number(text));
  return digits.length <= 15 || (digits.length <= 19 && value >= 1e-8 && value < 1e15);
}
const line = fc.record({
  topic: fc.constantFrom('301', '302', '303', '30', 'q-9', '1000'),
  document: fc.constantFrom('d1', 'd10', 'd2', 'D9', 'x', 'd100', 'd3', 'd11', 'zz', 'longer-document-id-17', 'a~b', "o'k", 'x\x7fy'),
  score,
  separators: fc.tuple(separator, separator, separator, separator, separator),
  trailer: fc.constantFrom('', '', ' anything after the tag', '\r', '\t9 9'),
});
type Line = typeof line extends fc.Arbitrary<infer T> ? T : never;

/** The lines as a run file of one tag, each topic's documents distinct. */
function runText(lines: readonly Line[], tag: string): string {
  const seen = new Set<string>();
  return lines
    .filter((each) => {
      const key = `${each.topic} ${each.document}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((each, index) => {
      const [a, b, c, d, e] = each.separators;
      return `${each.topic}${a}Q0${b}${each.document}${c}${index + 1}${d}${each.score}${e}${tag}${each.trailer}`;
    })
    .join('\n');
}

/** The kernel against the JavaScript reader, readRunLines, which follows the one run-line rule (shared/trec/run-line.ts). */
describe('kernelRunTopics', () => {
  let folder: TempFolder;
  beforeAll(async () => {
    folder = await createTempFolder();
  });
  afterAll(async () => {
    await folder.remove();
  });

  it('gives every run file of the common shape, byte for byte, what the JavaScript reader gives', async () => {
    let read = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 80 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.boolean(),
        async (lines, newline, finalNewline, byteOrderMark) => {
          // Prepare
          const text = runText(lines, 'tag-A').replaceAll('\n', newline);
          const file = await folder.write('run', `${byteOrderMark ? '\ufeff' : ''}${text}${finalNewline ? newline : ''}`);

          // Act
          const fromKernel = kernelRunTopics(file);

          // Assess: whenever the kernel reads a file, it agrees with the JavaScript reader on everything, down to the scores' digits
          const fromScript = await scriptRunTopics(file);
          if (fromKernel !== undefined) {
            read++;
            expect(fromKernel).toEqual(fromScript);
          }
          // ...and it reads every such file (a byte-order mark is skipped) whose scores it can write as JavaScript does
          if (lines.every((each) => writable(each.score))) expect(fromKernel).toBeDefined();
        },
      ),
      { numRuns: 300, seed: 26_112_026 },
    );
    expect(read).toBeGreaterThan(40);
  });

  it.each([
    ['two tags', 'q1 Q0 d1 1 2 a\nq1 Q0 d2 2 1 b\n'],
    ['a document twice in a topic', 'q1 Q0 d1 1 2 a\nq1 Q0 d1 2 1 a\n'],
    ['a bad score', 'q1 Q0 d1 1 high a\n'],
    ['a score of more than 19 significant digits', 'q1 Q0 d1 1 0.12345678901234567891 a\n'],
    ['a score of 17 digits below 10^-10', 'q1 Q0 d1 1 1.2345678901234567e-11 a\n'],
    ['a subnormal score', 'q1 Q0 d1 1 5e-324 a\n'],
    ['a negative zero', 'q1 Q0 d1 1 -0.0 a\n'],
    ['five fields', 'q1 Q0 d1 1 2\n'],
    ['a blank line', 'q1 Q0 d1 1 2 a\n\nq1 Q0 d2 2 1 a\n'],
    ['leading spaces', '  q1 Q0 d1 1 2 a\n'],
    ['a comment line', '# a comment\nq1 Q0 d1 1 2 a\n'],
    ['a quote in a document id', 'q1 Q0 d"1 1 2 a\n'],
    ['a backslash in a document id', 'q1 Q0 d\\1 1 2 a\n'],
    ['a no-break space, which JavaScript splits fields at', 'q1 Q0 d1\u00a0x 1 2 a\n'],
    ['non-ASCII text', 'q1 Q0 dé 1 2 a\n'],
    ['a control byte in a field', 'q1 Q0 d\u00011 1 2 a\n'],
  ])('leaves a file with %s to the JavaScript reader, which reads it as before', async (_shape, text) => {
    // Prepare
    const file = await folder.write('declined', text);

    // Act
    const fromKernel = kernelRunTopics(file);
    const read = await readRunTopics(file);

    // Assess
    expect(fromKernel).toBeUndefined();
    expect(read).toEqual(await scriptRunTopics(file));
  });

  it('orders a topic of thousands of lines in no order, with ties, as the JavaScript reader does, and reads a short file after it in the same memory', async () => {
    // Prepare: 4 topics interleaved, 20,000 lines, scores with many ties
    const lines = Array.from(
      { length: 20_000 },
      (_, index) =>
        `${['301', '302', '303', '304'][index % 4]} Q0 ${['d', 'D', 'x'][index % 3]}${(index * 7919) % 20_011} 1 ${((index * 31) % 17) / 4} long`,
    );
    const long = await folder.write('long', `${lines.join('\n')}\n`);
    const short = await folder.write('short', '9 Q0 a 1 1.50 s\n9 Q0 b 2 1.5 s\n');

    // Act
    const first = kernelRunTopics(long);
    const second = kernelRunTopics(short);

    // Assess
    expect(first).toBeDefined();
    expect(first).toEqual(await scriptRunTopics(long));
    expect(second).toEqual(await scriptRunTopics(short));
    expect(second?.rankings).toEqual([{ qid: '9', tag: 0, count: 2, start: 0, end: 41 }]);
    expect(Buffer.from(second?.json ?? []).toString('utf8')).toBe('{"doc_uris":["b","a"],"scores":[1.5,1.5]}');
    // Each file's lists in a buffer of their own, which a thread can hand over without a copy.
    expect(second?.json.byteLength).toBe(second?.json.buffer.byteLength);
  });
});
