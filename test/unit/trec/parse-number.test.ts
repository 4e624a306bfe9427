import { describe, expect, it } from 'vitest';
import { parseNumberBytes } from '../../../shared/trec/parse-number.js';

/** Parses `text` placed inside a longer line, as the readers call it. */
function parseField(text: string): number {
  const line = Buffer.from(`301 Q0 doc 1 ${text} run`, 'utf8');
  const start = Buffer.byteLength('301 Q0 doc 1 ');
  return parseNumberBytes(line, start, start + Buffer.byteLength(text));
}

describe('parseNumberBytes', () => {
  it.each([
    '0',
    '-0',
    '+0',
    '2',
    '2.0',
    '+2',
    '-2.5',
    '.5',
    '5.',
    '-.5',
    '0.1',
    '0.30000000000000004',
    '000123.4560',
    '123456789012345',
    '1234567890123456',
    '12345678901234567890',
    '0.0000000000000000000001',
    '0.00000000000000000000001',
    '9007199254740993',
    '1e3',
    '2e0',
    '1E-3',
    '-1.5e+10',
    '1e400',
    '-1e400',
    '1e-400',
    '4.9e-324',
    '1.7976931348623157e308',
    'Infinity',
    '-Infinity',
  ])('reads %j as Number() does', (text) => {
    expect(Object.is(parseField(text), Number(text))).toBe(true);
  });

  it.each(['', '-', '+', '.', '-.', 'abc', '1.2.3', '--1', '+-1', '1e', 'e5', '1,5', 'nan'])('gives NaN for %j', (text) => {
    expect(parseField(text)).toBeNaN();
  });

  it('gives equal doubles for 2, 2.0, 2e0 and +2', () => {
    expect(new Set(['2', '2.0', '2e0', '+2', '2.000000000000000000000'].map(parseField))).toEqual(new Set([2]));
  });
});
