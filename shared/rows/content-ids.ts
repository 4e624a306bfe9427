import { createHash } from 'node:crypto';

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The doc_uri of a chunk given only as text: the same text retrieved by two
 * engines, or given as a ground-truth context, is then the same document, so
 * ground-truth metrics can match them. The text is hashed exactly as given.
 */
export function contentDocUri(content: string): string {
  return `content:${sha256Hex(content).slice(0, 16)}`;
}

/**
 * The request_id of a case whose rows give none: stable across runs and
 * formats, so results of two runs over the same questions line up.
 */
export function requestIdFor(request: string): string {
  return `q-${sha256Hex(request).slice(0, 12)}`;
}
