import type { BatchLine } from './batch-provider.js';

/**
 * The lines of a job's output or error file, read one at a time: a file the
 * provider wrote may hold a line that is not JSON, a last line cut off in
 * the middle, or a line of another shape, and none of them may cost the
 * answers of the others. A line that cannot be read is yielded as such (its
 * request id kept when the text still shows one), so it is counted and its
 * request sent again, instead of stopping the collection of a paid job.
 *
 * `read` turns one parsed line into what it says (the adapter's wire).
 */
export function* resultLines(text: string, read: (line: unknown) => BatchLine): Generator<BatchLine> {
  const lines = text.split('\n');
  // A file that does not end with a line break may have been cut: its last line is read as cut off when it does not parse.
  const cutAt = text.endsWith('\n') ? -1 : lines.length - 1;
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      yield { kind: 'unreadable', requestId: requestIdIn(line), reason: index === cutAt ? 'cut off' : 'not JSON' };
      continue;
    }
    yield read(parsed);
  }
}

/** A request id (`b` and 39 hex digits) the text of a broken line still shows, as a custom_id or recordId. */
function requestIdIn(line: string): string | undefined {
  return /"(?:custom_id|recordId)"\s*:\s*"(b[0-9a-f]{39})"/.exec(line)?.[1];
}
