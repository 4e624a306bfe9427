import { describe, expect, it } from 'vitest';
import { AVERAGE_PASSAGE_LENGTH, passageLength, termCoverage, termCredit } from '../../../../shared/judges/lexical/term-coverage.js';
import { tokenize } from '../../../../shared/judges/lexical/tokenize.js';
import { filler } from './factories.js';

// K = 1.2 · (0.25 + 0.75 · |D| / 100); credit = min(1, f · 2.2 / (f + K))
describe('termCredit', () => {
  it.each<[string, number, number, number]>([
    ['an absent term', 0, 100, 0],
    // K = 1.2: 1 · 2.2 / 2.2 = 1
    ['one mention in a passage of average length', 1, 100, 1],
    // K = 1.2 · 0.325 = 0.39: 2.2 / 1.39 > 1, capped
    ['one mention in a short passage', 1, 10, 1],
    // K = 1.2 · 3.25 = 3.9: 2.2 / 4.9 = 0.44898
    ['one mention in a passage four times the average', 1, 400, 2.2 / 4.9],
    // 3 · 2.2 / 6.9 = 0.95652
    ['three mentions in that passage', 3, 400, 6.6 / 6.9],
    // 4 · 2.2 / 7.9 > 1, capped
    ['four mentions in that passage', 4, 400, 1],
  ])('is right for %s', (_described, frequency, length, expected) => {
    expect(termCredit(frequency, length)).toBeCloseTo(expected, 12);
  });
});

describe('passageLength', () => {
  it.each<[string, string, number]>([
    ['counts content words', 'the vector database stores vectors', 4],
    // 5 bigrams at half a word each
    ['counts a CJK bigram as half a word', '向量数据库好', 2.5],
    ['adds both in mixed text', 'GPT模型', 1.5],
    ['is 0 for an empty passage', '', 0],
  ])('%s', (_described, text, expected) => {
    expect(passageLength(tokenize(text))).toBe(expected);
  });
});

describe('termCoverage', () => {
  it('counts each distinct request term once, whatever the request repeats', () => {
    // Prepare: terms vector, database, metric; the passage holds two of them
    const request = tokenize('vector vector database metric');
    const passage = tokenize('a vector database');

    // Act
    const coverage = termCoverage(request, passage);

    // Assess: 2 of 3 at full credit
    expect(coverage).toEqual({ terms: 3, found: 2, coverage: 2 / 3, passageLength: 2 });
  });

  it('gives partial credit to single mentions in a long passage', () => {
    // Prepare: 400 words, vector three times, database once, metric never
    const request = tokenize('vector database metric');
    const passage = tokenize(`vector vector vector database ${filler(396)}`);

    // Act
    const coverage = termCoverage(request, passage);

    // Assess: (6.6/6.9 + 2.2/4.9 + 0) / 3 = (0.95652 + 0.44898) / 3 = 0.46850
    expect(coverage.found).toBe(2);
    expect(coverage.passageLength).toBe(400);
    expect(coverage.coverage).toBeCloseTo((6.6 / 6.9 + 2.2 / 4.9) / 3, 12);
  });

  it('gives full credit to single mentions up to the average length', () => {
    // Prepare
    const request = tokenize('vector database');
    const passage = tokenize(`vector database ${filler(AVERAGE_PASSAGE_LENGTH - 2)}`);

    // Act
    const coverage = termCoverage(request, passage);

    // Assess
    expect(coverage.coverage).toBe(1);
  });

  it.each<[string, string, string]>([
    ['an empty request', '', 'vector database'],
    ['a request of stop words only', 'what is it?', 'what is it? it is a vector database'],
    ['both empty', '', ''],
  ])('is 0, not NaN, for %s', (_described, request, passage) => {
    expect(termCoverage(tokenize(request), tokenize(passage))).toEqual({
      terms: 0,
      found: 0,
      coverage: 0,
      passageLength: passageLength(tokenize(passage)),
    });
  });

  it('is 0 for an empty passage', () => {
    expect(termCoverage(tokenize('vector database'), [])).toEqual({ terms: 2, found: 0, coverage: 0, passageLength: 0 });
  });
});
