import { describe, expect, it } from 'vitest';
import { terminalJson, terminalName, terminalText } from '../../../shared/report-render/terminal-text.js';
import { alignedTable } from '../../../shared/report-render/text-table.js';

describe('terminalName', () => {
  it.each<[string, string, string]>([
    ['an ESC sequence (CSI: clear the screen)', 'bm25\u001b[2J', 'bm25\\x1b[2J'],
    ['an OSC title change ended by BEL', '\u001b]0;owned\u0007dense', '\\x1b]0;owned\\x07dense'],
    ['the 8-bit OSC and CSI', 'a\u009d0;x\u009cb\u009b31m', 'a\\x9d0;x\\x9cb\\x9b31m'],
    ['DEL and NUL', 'a\u007fb\u0000c', 'a\\x7fb\\x00c'],
    ['line breaks and tabs, which would forge a line or a column', 'q1\nq2\r\tx', 'q1\\nq2\\r\\tx'],
    ['printable text as it is, Unicode included', 'café 中文 doc-1 (v2) \\x1b', 'café 中文 doc-1 (v2) \\x1b'],
    ['a right-to-left override, which would show the rest of the row reversed', 'q01\u202e 0.9639', 'q01\\u202e 0.9639'],
    [
      'every bidirectional formatting character',
      '\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069',
      '\\u061c\\u200e\\u200f\\u202a\\u202b\\u202c\\u202d\\u2066\\u2067\\u2068\\u2069',
    ],
    ['right-to-left letters as they are (only controls are escaped)', 'שאלה-1', 'שאלה-1'],
  ])('escapes %s', (_described, name, shown) => {
    expect(terminalName(name)).toBe(shown);
  });
});

describe('terminalText', () => {
  it('keeps line breaks and tabs of a block of text and escapes every other control character', () => {
    expect(terminalText('engine\tbm25\u001b[31m\nnext\u009d line\r\n')).toBe('engine\tbm25\\x1b[31m\nnext\\x9d line\\r\n');
  });

  it('escapes a right-to-left override in a block of text', () => {
    expect(terminalText('q\u202e01: 0.9639\n')).toBe('q\\u202e01: 0.9639\n');
  });
});

describe('alignedTable', () => {
  it('shows a right-to-left override in a name escaped, so the numbers of its row keep their order and columns', () => {
    const table = alignedTable(
      ['engine', 'A', 'B'],
      [
        ['bm25\u202e', '0.9639', '0.6885'],
        ['dense', '0.5000', '0.7500'],
      ],
    );

    expect(table).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(table.split('\n')).toEqual([
      'engine           A       B',
      '----------  ------  ------',
      'bm25\\u202e  0.9639  0.6885',
      'dense       0.5000  0.7500',
    ]);
  });
});

describe('terminalJson', () => {
  it('writes the C1 controls and bidirectional characters JSON leaves as they are as \\u escapes, the same JSON still', () => {
    const value = { state: 'in_progress\u202e', message: 'osc \u009d0;title\u0007 done' };

    const shown = terminalJson(JSON.stringify(value));

    expect(shown).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(shown).toContain('in_progress\\u202e');
    expect(JSON.parse(shown)).toEqual(value);
  });
});
