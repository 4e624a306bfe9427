const REPLACEMENTS: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Text from a report (case ids, engine names, error messages) as HTML text or
 * as the value of a double-quoted attribute: the five characters that can
 * end a text run or an attribute become entities, so no data can open a tag,
 * close an attribute or start a script.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => REPLACEMENTS[character] ?? character);
}

/**
 * Bidirectional formatting characters: the Arabic letter mark, the
 * left-to-right and right-to-left marks, the embeddings and overrides
 * (LRE, RLE, PDF, LRO, RLO) and the isolates (LRI, RLI, FSI, PDI). One in an
 * id reorders the text after it, numbers included ("A 0.9639, B 0.6885"
 * read backwards), so data never carries them onto a page as they are.
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Text with its bidirectional formatting characters written out as JavaScript writes them (`\u202e`), so they show instead of acting. */
export function visibleBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Printable ASCII (with tabs and line breaks): text that cannot change the direction of what is around it. */
const PLAIN = /^[\t\n\r\x20-\x7e]*$/;

/**
 * Text from the data (an id, an engine, a document, a metric) as HTML text
 * set beside other text and numbers: escaped, its bidirectional controls
 * shown (visibleBidiControls), and, unless it is printable ASCII, inside a
 * `<bdi>` element, so right-to-left letters in it (Hebrew, Arabic) are laid
 * out in their own direction without moving the numbers beside it. `shape`
 * changes the escaped text before it is wrapped (to add line-break points).
 */
export function isolatedText(text: string, shape: (escaped: string) => string = (escaped) => escaped): string {
  const escaped = shape(escapeHtml(visibleBidiControls(text)));
  return PLAIN.test(text) ? escaped : `<bdi>${escaped}</bdi>`;
}

/**
 * The same as plain text, for text that no element can hold (an attribute,
 * an SVG title, a tooltip built from names and numbers), not yet escaped:
 * its controls shown, and, unless it is printable ASCII, between FIRST
 * STRONG ISOLATE and POP DIRECTIONAL ISOLATE, the characters that do in
 * plain text what `<bdi>` does.
 */
export function isolated(text: string): string {
  const shown = visibleBidiControls(text);
  return PLAIN.test(text) ? shown : `\u2068${shown}\u2069`;
}
