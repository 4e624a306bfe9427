import { describe, expect, it } from 'vitest';
import { parsePythonStringList } from '../../../shared/rows/python-string-list.js';

describe('parsePythonStringList', () => {
  it.each([
    ['[]', []],
    ["['one']", ['one']],
    [`['first context', "it's second"]`, ['first context', "it's second"]],
    [`[ 'a' ,\n 'b', ]`, ['a', 'b']],
    [String.raw`['tab\there', 'quote \' in', "back\\slash", 'new\nline']`, ['tab\there', "quote ' in", 'back\\slash', 'new\nline']],
    [String.raw`['\xe9t\u00e9', '\U0001F600']`, ['été', '😀']],
    [String.raw`[r'C:\path\n', u'unicode']`, [String.raw`C:\path\n`, 'unicode']],
    [String.raw`['unknown \d escape']`, [String.raw`unknown \d escape`]],
    ["['如何申请退款？']", ['如何申请退款？']],
  ])('reads %s', (text, expected) => {
    // Act
    const result = parsePythonStringList(text);

    // Assess
    expect(result).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['a list with a number', "['a', 1]", /expected a quoted string/],
    ['None', "['a', None]", /expected a quoted string/],
    ['a numpy array repr (no commas)', "['a' 'b']", /expected , or \]/],
    ['an unclosed string', "['a, 'b']", /expected , or \]/],
    ['an unclosed list', "['a', 'b'", /not closed with \]/],
    ['text after the list', "['a'] extra", /after the closing \]/],
    ['a nested list', "[['a']]", /expected a quoted string/],
    ['a bad hex escape', String.raw`['\xZZ']`, /bad \\x escape/],
  ])('refuses %s', (_described, text, message) => {
    // Act
    const result = parsePythonStringList(text);

    // Assess
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(message);
  });
});
