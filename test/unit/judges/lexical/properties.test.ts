import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LEXICAL_JUDGE_IDS, lexicalVerdict, type LexicalInputs } from '../../../../shared/judges/lexical/lexical-judge.js';
import { AVERAGE_PASSAGE_LENGTH, passageLength } from '../../../../shared/judges/lexical/term-coverage.js';
import { tokenize } from '../../../../shared/judges/lexical/tokenize.js';
import { expectVerdict } from './factories.js';

// Seeded, so a failure reproduces; the run count keeps the file well under a second.
const settings = { seed: 7, numRuns: 200 } as const;

// Any code point but a lone surrogate. Built by hand: fc.string({ unit: 'binary' })
// takes over a second to set up, more than the whole file should take to run.
const codePoint = fc
  .integer({ min: 0, max: 0x10ffff })
  .filter((value) => value < 0xd800 || value > 0xdfff)
  .map((value) => String.fromCodePoint(value));

// Texts from words that exercise every rule (stop words, plurals, CJK runs,
// full-width forms, marks) mixed with arbitrary Unicode.
const vocabulary = fc.constantFrom(
  'the',
  'what',
  'how',
  "don't",
  'vector',
  'vectors',
  'database',
  'databases',
  'query',
  'queries',
  'index',
  'indexes',
  'class',
  'status',
  'BM25',
  'ＢＭ２５',
  'GPT-4',
  '向量',
  '数据库',
  '如何',
  '相似度',
  '余弦',
  '库',
  'ラーメン',
  '검색',
  'नमस्ते',
  'café',
  '𠀀𠀁',
  '，',
  '!',
  '\n',
);
const text = fc.oneof(
  fc.array(vocabulary, { maxLength: 30 }).map((words) => words.join(' ')),
  fc.array(vocabulary, { maxLength: 30 }).map((words) => words.join('')),
  fc.string({ maxLength: 60 }),
  fc.array(codePoint, { maxLength: 60 }).map((characters) => characters.join('')),
);
const inputs: fc.Arbitrary<LexicalInputs> = fc.record({
  request: text,
  response: text,
  chunk: text,
  context: fc.array(text, { maxLength: 4 }),
});
const judgeId = fc.constantFrom(...LEXICAL_JUDGE_IDS);

describe('lexicalVerdict properties', () => {
  it('gives a value in [0, 1], finite details and a prefixed rationale for any text', () => {
    fc.assert(
      fc.property(judgeId, inputs, (id, given) => {
        const verdict = expectVerdict(lexicalVerdict(id, given));

        expect(verdict.value).toBeGreaterThanOrEqual(0);
        expect(verdict.value).toBeLessThanOrEqual(1);
        for (const detail of Object.values(verdict.details ?? {})) expect(Number.isFinite(detail)).toBe(true);
        expect(verdict.rationale.startsWith('Non-LLM lexical approximation: ')).toBe(true);
      }),
      settings,
    );
  });

  it('judges a passage that contains the request relevant, up to the average passage length', () => {
    const containing = fc
      .record({ before: text, request: text, after: text })
      .filter(({ request }) => tokenize(request).length > 0)
      .map(({ before, request, after }) => ({ request, chunk: `${before} ${request} ${after}` }))
      .filter(({ chunk }) => passageLength(tokenize(chunk)) <= AVERAGE_PASSAGE_LENGTH);

    fc.assert(
      fc.property(containing, (given) => {
        expect(expectVerdict(lexicalVerdict('chunk_relevance', given)).rating).toBe('yes');
        expect(expectVerdict(lexicalVerdict('graded_relevance', given)).rating).toBe(3);
      }),
      settings,
    );
  });

  it('judges a response grounded in a context that contains it', () => {
    const containing = fc
      .record({ response: text, others: fc.array(text, { maxLength: 3 }) })
      .filter(({ response }) => tokenize(response).length > 0);

    fc.assert(
      fc.property(containing, ({ response, others }) => {
        const verdict = expectVerdict(lexicalVerdict('groundedness', { request: '', response, context: [...others, response] }));

        expect(verdict.rating).toBe('yes');
      }),
      settings,
    );
  });

  it('says yes to chunk_relevance exactly when graded_relevance gives 2 or 3', () => {
    fc.assert(
      fc.property(inputs, (given) => {
        const relevant = expectVerdict(lexicalVerdict('chunk_relevance', given)).rating === 'yes';
        const grade = expectVerdict(lexicalVerdict('graded_relevance', given)).rating as number;

        expect(relevant).toBe(grade >= 2);
      }),
      settings,
    );
  });

  it('gives the same verdict for the same inputs, whatever the order of the context', () => {
    fc.assert(
      fc.property(judgeId, inputs, (id, given) => {
        const first = lexicalVerdict(id, given);
        const again = lexicalVerdict(id, structuredClone({ ...given, context: [...(given.context ?? [])].reverse() }));

        expect(again).toEqual(first);
      }),
      settings,
    );
  });
});
