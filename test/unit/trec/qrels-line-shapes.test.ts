import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradesByDocument, readQrels } from '../../../shared/trec/qrels.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

const separator = fc.constantFrom(' ', ' ', ' ', '\t', '  ', ' \t', '\v', '\f');
// Plain integers (read in the scanning loop) and the other forms an integer grade may take (read by the general path).
const grade = fc.constantFrom('0', '1', '2', '3', '10', '-1', '-2', '-0', '01', '+1', '1.0', '99', '0000000007');
const judgment = fc.record({
  topic: fc.constantFrom('301', '302', 't-1'),
  document: fc.stringMatching(/^[A-Za-z0-9#_.-]{1,8}$/),
  grade,
  separators: fc.tuple(separator, separator, separator),
  indent: fc.constantFrom('', '', '', ' ', '\t'),
  trailer: fc.constantFrom('', '', ' ', '\r'),
});
type Judgment = typeof judgment extends fc.Arbitrary<infer T> ? T : never;

/** What readQrels must make of the lines: each topic's grades by document in file order, or the line of the first repeated judgment. */
function expected(lines: readonly Judgment[]): { topics: [string, [string, number][]][] } | { repeatedAt: number } {
  const topics = new Map<string, Map<string, number>>();
  for (const [index, line] of lines.entries()) {
    const grades = topics.get(line.topic) ?? new Map<string, number>();
    if (grades.has(line.document)) return { repeatedAt: index + 1 };
    grades.set(line.document, Number(line.grade));
    topics.set(line.topic, grades);
  }
  return { topics: [...topics].map(([topicId, grades]) => [topicId, [...grades]]) };
}

describe('readQrels on lines of every shape', () => {
  let folder: TempFolder;
  beforeAll(async () => {
    folder = await createTempFolder();
  });
  afterAll(async () => {
    await folder.remove();
  });

  it('reads each line as a plain split on C whitespace and Number() would, whichever path reads it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(judgment, { minLength: 1, maxLength: 40 }), fc.boolean(), async (lines, commented) => {
        // Prepare: comment and blank lines between them, which the general path skips
        const text = lines
          .map((line, index) => {
            const [first, second, third] = line.separators;
            const written = `${line.indent}${line.topic}${first}0${second}${line.document}${third}${line.grade}${line.trailer}`;
            return commented && index % 7 === 3 ? `# note\n\n${written}` : written;
          })
          .join('\n');
        const file = await folder.write('shapes.qrels', `${text}\n`);

        // Act
        const result = await readQrels(file);

        // Assess
        const wanted = expected(lines);
        if ('repeatedAt' in wanted) {
          expect(result.ok).toBe(false);
          if (!result.ok) expect(result.error.line).toBe(wanted.repeatedAt + (commented ? 2 * Math.floor((wanted.repeatedAt + 3) / 7) : 0));
          return;
        }
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        expect({ topics: [...result.qrels].map(([topicId, judgments]) => [topicId, [...gradesByDocument(judgments)]]) }).toEqual(wanted);
        for (const [topicId, judgments] of result.qrels) {
          const counts: number[] = [];
          for (const [, value] of wanted.topics.find(([id]) => id === topicId)?.[1] ?? []) if (value >= 0) counts[value] = (counts[value] ?? 0) + 1;
          expect(judgments.gradeCounts).toEqual(Array.from(counts, (count) => count ?? 0));
        }
      }),
      { numRuns: 300, seed: 26_112_601 },
    );
  });
});
