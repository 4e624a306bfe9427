/**
 * Names assay prints (suites, engines, judges, runs, files, case and request
 * ids, document ids, metrics) come from users' files and from the answers of
 * live engines. A control character among them would drive the terminal
 * instead of being shown: ESC and CSI start escape sequences (colours,
 * cursor moves, clearing the screen), OSC (ESC ] or U+009D) sets the window
 * title or writes hyperlinks and the clipboard in some terminals, BEL rings,
 * and a carriage return or line break overwrites or forges a line. A
 * bidirectional formatting character (a right-to-left override U+202E, an
 * isolate, a mark) makes a terminal that lays out bidirectional text show the
 * rest of the line reordered, the numbers of a table row included. These
 * show them escaped, as JavaScript writes them (`\x1b`, `\x9d`, `\n`,
 * `\u202e`).
 */

/** C0 controls, DEL, C1 controls, and the bidirectional formatting characters (ALM, LRM, RLM, LRE to RLO, LRI to PDI). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** The same but for line breaks and tabs, which lay out a block of text. */
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escaped(character: string): string {
  const code = character.charCodeAt(0);
  return NAMED[character] ?? (code > 0xff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\x${code.toString(16).padStart(2, '0')}`);
}

/** One name (a cell, a field of a line): every control character escaped, line breaks and tabs too. */
export function terminalName(text: string): string {
  return text.replace(CONTROL, escaped);
}

/** A block of lines: every control character escaped but the line breaks and tabs that lay it out. */
export function terminalText(text: string): string {
  return text.replace(CONTROL_IN_TEXT, escaped);
}

/** The characters JSON.stringify leaves as they are that a terminal acts on: C1 controls, DEL and the bidirectional formatting characters. */
const CONTROL_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** JSON text for a terminal (`--json`): those characters as `\u` escapes, which is still the same JSON (JSON escapes the C0 ones itself). */
export function terminalJson(json: string): string {
  return json.replace(CONTROL_IN_JSON, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
