/**
 * Names assay prints (suites, engines, judges, runs, files, case and request
 * ids, document ids, metrics) come from users' files and from the answers of
 * live engines. A control character among them would drive the terminal
 * instead of being shown: ESC and CSI start escape sequences (colours,
 * cursor moves, clearing the screen), OSC (ESC ] or U+009D) sets the window
 * title or writes hyperlinks and the clipboard in some terminals, BEL rings,
 * and a carriage return or line break overwrites or forges a line. These
 * show them escaped, as JavaScript writes them (`\x1b`, `\x9d`, `\n`).
 */

/** C0 controls, DEL and C1 controls. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
/** The same but for line breaks and tabs, which lay out a block of text. */
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escaped(character: string): string {
  return NAMED[character] ?? `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`;
}

/** One name (a cell, a field of a line): every control character escaped, line breaks and tabs too. */
export function terminalName(text: string): string {
  return text.replace(CONTROL, escaped);
}

/** A block of lines: every control character escaped but the line breaks and tabs that lay it out. */
export function terminalText(text: string): string {
  return text.replace(CONTROL_IN_TEXT, escaped);
}
