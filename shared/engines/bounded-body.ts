/**
 * Reads an answer body chunk by chunk, counting bytes, and stops as soon as
 * it passes a limit: a service that answers with 100 MB costs the worker
 * the limit, not the whole body (and not the string and the parse of it on
 * top). Breaking out of the loop cancels a web stream and destroys a Node
 * one, which closes the connection, so the rest is never transferred.
 */

/** An error answer is read this far, for the excerpt its message quotes. */
export const ERROR_BODY_BYTES = 64 * 1024;

export type BodyRead =
  /** The whole body, decoded as UTF-8. */
  | { readonly kind: 'complete'; readonly text: string }
  /** More than the limit: `text` is what was read up to it, for an error message. */
  | { readonly kind: 'too-large'; readonly text: string }
  /** The stream failed after `bytes` bytes (a cut connection, a broken encoding). */
  | { readonly kind: 'broken'; readonly bytes: number; readonly error: unknown };

export async function readBoundedBody(chunks: AsyncIterable<Uint8Array>, limit: number): Promise<BodyRead> {
  const parts: Uint8Array[] = [];
  let bytes = 0;
  try {
    for await (const chunk of chunks) {
      if (bytes + chunk.byteLength > limit) {
        parts.push(chunk.subarray(0, limit - bytes));
        return { kind: 'too-large', text: decode(parts) };
      }
      bytes += chunk.byteLength;
      parts.push(chunk);
    }
  } catch (error) {
    return { kind: 'broken', bytes, error };
  }
  return { kind: 'complete', text: decode(parts) };
}

/** The declared length of a body when it is a whole number, else undefined (chunked, absent, garbled). */
export function declaredLength(header: string | null | undefined): number | undefined {
  if (header === null || header === undefined || !/^\d{1,16}$/.test(header.trim())) return undefined;
  return Number(header.trim());
}

function decode(parts: readonly Uint8Array[]): string {
  return new TextDecoder().decode(Buffer.concat(parts));
}
