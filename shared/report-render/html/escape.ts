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
