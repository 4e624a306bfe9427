import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradesByDocument, readQrels } from '../../../shared/trec/qrels.js';
import { readRun } from '../../../shared/trec/run.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

/** A run line as written: the fields, the separators between them, and what follows the tag. */
interface WrittenLine {
  readonly topic: string;
  readonly document: string;
  readonly rank: string;
  readonly score: string;
  readonly tag: string;
  readonly separators: readonly [string, string, string, string, string];
  readonly indent: string;
  readonly trailer: string;
}

const separator = fc.constantFrom(' ', ' ', ' ', '\t', '  ', ' \t', '\v', '\f');
// Plain decimals (parsed as they are scanned) and every other form a score may take (parsed by parseNumberBytes).
const score = fc.oneof(
  fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((value) => value.toFixed(6)),
  fc.integer({ min: -5000, max: 5000 }).map(String),
  fc.constantFrom('1e-3', '+2.5', '-0.0', '.5', '5.', '0.1234567890123456789', '12345678901234567', '-7E2', '0x10'),
);
const writtenLine: fc.Arbitrary<WrittenLine> = fc.record({
  topic: fc.constantFrom('301', '302', 't-1'),
  document: fc.stringMatching(/^[A-Za-z0-9#_.-]{1,12}$/),
  rank: fc.integer({ min: 0, max: 1000 }).map(String),
  score,
  tag: fc.constantFrom('bm25', 'run-A'),
  separators: fc.tuple(separator, separator, separator, separator, separator),
  indent: fc.constantFrom('', '', '', ' ', '\t'),
  trailer: fc.constantFrom('', '', ' extra words', '\r'),
});

function written(line: WrittenLine): string {
  const [first, second, third, fourth, fifth] = line.separators;
  return `${line.indent}${line.topic}${first}Q0${second}${line.document}${third}${line.rank}${fourth}${line.score}${fifth}${line.tag}${line.trailer}`;
}

/** What a reader must make of the lines: each topic's documents and scores in file order, the last tag; the first repeated document ends it. */
function expected(lines: readonly WrittenLine[]): { topics: [string, string[], number[]][]; runId: string } | { repeatedAt: number } {
  const topics = new Map<string, [string[], number[]]>();
  for (const [index, line] of lines.entries()) {
    const topic = topics.get(line.topic) ?? [[], []];
    if (topic[0].includes(line.document)) return { repeatedAt: index + 1 };
    topic[0].push(line.document);
    topic[1].push(Number(line.score));
    topics.set(line.topic, topic);
  }
  return { topics: [...topics].map(([topicId, [documents, scores]]) => [topicId, documents, scores]), runId: lines.at(-1)?.tag ?? '' };
}

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
function expectedJudgments(lines: readonly Judgment[]): { topics: [string, [string, number][]][] } | { repeatedAt: number } {
  const topics = new Map<string, Map<string, number>>();
  for (const [index, line] of lines.entries()) {
    const grades = topics.get(line.topic) ?? new Map<string, number>();
    if (grades.has(line.document)) return { repeatedAt: index + 1 };
    grades.set(line.document, Number(line.grade));
    topics.set(line.topic, grades);
  }
  return { topics: [...topics].map(([topicId, grades]) => [topicId, [...grades]]) };
}

/** readRun follows the one run-line rule (shared/trec/run-line.ts) on lines of every shape; readQrels's fast path and its general path give one result. */
describe('readRun and readQrels on lines of every shape', () => {
  let folder: TempFolder;
  beforeAll(async () => {
    folder = await createTempFolder();
  });
  afterAll(async () => {
    await folder.remove();
  });

  it('reads each line as a plain split on C whitespace and Number() would, whichever way its score is parsed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(writtenLine, { minLength: 1, maxLength: 40 }), fc.boolean(), async (lines, commented) => {
        // Prepare: comment and blank lines between them, which the rule skips
        const text = lines.map((line, index) => (commented && index % 7 === 3 ? `# note\n\n${written(line)}` : written(line))).join('\n');
        const file = await folder.write('shapes.txt', `${text}\n`);

        // Act
        const result = await readRun(file);

        // Assess
        const wanted = expected(lines);
        if ('repeatedAt' in wanted) {
          expect(result.ok).toBe(false);
          return;
        }
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        const topics = [...result.value.topics].map(([topicId, topic]) => [topicId, topic.documents.texts(), topic.scores]);
        expect({ topics, runId: result.value.runId }).toEqual(wanted);
      }),
      { numRuns: 200, seed: 22 },
    );
  });

  it('names the line of a repeated document, and of a short line after plain ones', async () => {
    // Prepare
    const plain = Array.from({ length: 50 }, (_, index) => `7 Q0 d${index} ${index + 1} ${(100 - index).toFixed(4)} tag`);
    const repeated = await folder.write('repeated.txt', [...plain, '7 Q0 d3 51 1.5000 tag', ''].join('\n'));
    const short = await folder.write('short.txt', [...plain, '7 Q0 d99 51 1.5000', ''].join('\n'));

    // Act
    const results = await Promise.all([readRun(repeated), readRun(short)]);

    // Assess
    expect(results).toMatchObject([
      { ok: false, error: { line: 51, message: 'topic 7 retrieves document d3 twice' } },
      { ok: false, error: { line: 51, message: 'expected at least 6 fields "qid iter docno rank score tag", found 5' } },
    ]);
  });

  it('reads each qrels line as a plain split on C whitespace and Number() would, whichever path reads it', async () => {
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
        const wanted = expectedJudgments(lines);
        if ('repeatedAt' in wanted) {
          expect(result.ok).toBe(false);
          if (!result.ok) expect(result.error.line).toBe(wanted.repeatedAt + (commented ? 2 * Math.floor((wanted.repeatedAt + 3) / 7) : 0));
          return;
        }
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        expect({ topics: [...result.value].map(([topicId, judgments]) => [topicId, [...gradesByDocument(judgments)]]) }).toEqual(wanted);
        for (const [topicId, judgments] of result.value) {
          const counts: number[] = [];
          for (const [, value] of wanted.topics.find(([id]) => id === topicId)?.[1] ?? [])
            if (value >= 0) counts[value] = (counts[value] ?? 0) + 1;
          expect(judgments.gradeCounts).toEqual(Array.from(counts, (count) => count ?? 0));
        }
      }),
      { numRuns: 300, seed: 26_112_601 },
    );
  });
});
