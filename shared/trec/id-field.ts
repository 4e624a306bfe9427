/**
 * An id as a field of a TREC file that assay writes (judgments.qrels). TREC
 * fields are separated by whitespace (trec_eval splits on C's isspace,
 * assay's readers on that or on JavaScript's `\s`), and a line that starts
 * with `#` is a comment to assay's qrels reader. A request id or document id
 * from a JSON dataset may hold any of these, and written as it is it would
 * split into extra fields or lines, so one id could forge judgments.
 *
 * Such an id is percent-encoded as in a URL: each whitespace or control
 * character, each `%`, and (for the first field) a leading `#` become the
 * `%XX` escapes of their UTF-8 bytes (`My File.pdf` -> `My%20File.pdf`), so
 * decodeURIComponent gives the id back. Every other id is written as it is,
 * byte for byte, because human qrels and run files from elsewhere name the
 * same documents that way (a URL id such as `a%20b` must still match theirs).
 * No reader decodes: an encoded id is a whole TREC token of its own, and ids
 * with whitespace appear in no other TREC file to be matched against.
 */
export function trecIdField(id: string, position: 'first' | 'inner'): string {
  const commentLike = position === 'first' && id.startsWith('#');
  if (!commentLike && !UNWRITABLE.test(id)) return id;
  const escaped = id.replace(ESCAPED, (character) => encodeURIComponent(character));
  return commentLike ? `%23${escaped.slice(1)}` : escaped;
}

/** Whitespace as either reader splits on it (`\s` covers C's isspace and Unicode spaces), and the other control characters (a NUL ends a C string). */
const UNWRITABLE = /[\s\u0000-\u001f\u007f]/u;
const ESCAPED = /[\s\u0000-\u001f\u007f%]/gu;
