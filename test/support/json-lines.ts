/**
 * A result file of a batch test server read as its client would see it,
 * line by line: each non-empty line parsed as JSON, or undefined where the
 * line is not (a broken line the server wrote on purpose).
 */
export function jsonLines<Line>(text: string): (Line | undefined)[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as Line;
      } catch {
        return undefined;
      }
    });
}
