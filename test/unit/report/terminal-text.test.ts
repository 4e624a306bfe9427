import { describe, expect, it } from 'vitest';
import { terminalName, terminalText } from '../../../shared/report-render/terminal-text.js';

describe('terminalName', () => {
  it.each<[string, string, string]>([
    ['an ESC sequence (CSI: clear the screen)', 'bm25\u001b[2J', 'bm25\\x1b[2J'],
    ['an OSC title change ended by BEL', '\u001b]0;owned\u0007dense', '\\x1b]0;owned\\x07dense'],
    ['the 8-bit OSC and CSI', 'a\u009d0;x\u009cb\u009b31m', 'a\\x9d0;x\\x9cb\\x9b31m'],
    ['DEL and NUL', 'a\u007fb\u0000c', 'a\\x7fb\\x00c'],
    ['line breaks and tabs, which would forge a line or a column', 'q1\nq2\r\tx', 'q1\\nq2\\r\\tx'],
    ['printable text as it is, Unicode included', 'café 中文 doc-1 (v2) \\x1b', 'café 中文 doc-1 (v2) \\x1b'],
  ])('escapes %s', (_described, name, shown) => {
    expect(terminalName(name)).toBe(shown);
  });
});

describe('terminalText', () => {
  it('keeps line breaks and tabs of a block of text and escapes every other control character', () => {
    expect(terminalText('engine\tbm25\u001b[31m\nnext\u009d line\r\n')).toBe('engine\tbm25\\x1b[31m\nnext\\x9d line\\r\n');
  });
});
