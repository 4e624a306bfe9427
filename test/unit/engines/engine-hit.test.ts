import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { checkedExpression, mapAnswer } from '../../../shared/engines/answer-mapping.js';
import { describeHitProblem, hitSchema } from '../../../shared/engines/engine-hit.js';

const RESULTS = checkedExpression('hits[].{doc_uri: id, score: score}');

/** The problem a list of one hit has, as a connector's failure message names it. */
function problemOf(hit: Record<string, unknown>): string {
  const parsed = z.array(hitSchema).safeParse([hit]);
  return parsed.success ? '(accepted)' : describeHitProblem(parsed.error);
}

describe('parsing the hits an engine answered', () => {
  it('rejects a score of 150,000 digits and an "x" in milliseconds, not by backtracking for seconds', () => {
    // Prepare
    const hostile = `${'1'.repeat(150_000)}x`;

    // Act
    const started = performance.now();
    const problem = problemOf({ doc_uri: 'd1', score: hostile });

    // Assess
    expect(performance.now() - started).toBeLessThan(100);
    expect(problem).toBe('item 1: score: a text of 150001 characters, expected a number of at most 64');
  });

  it.each([
    ['12.5', 12.5],
    [' -2e3 ', -2000],
    ['.5', 0.5],
    ['5.', 5],
    ['+1.25E-2', 0.0125],
  ])('reads the numeric text %j as %d', (text, expected) => {
    expect(hitSchema.parse({ doc_uri: 'd1', score: text }).score).toBe(expected);
  });

  it.each(['high', '', '1.2.3', '--1', '0x10', 'Infinity', 'NaN', '1e', '1e999', '.', '1 2'])('refuses the score text %j', (text) => {
    expect(problemOf({ doc_uri: 'd1', score: text })).toMatch(/^item 1: score: .*expected a number/);
  });

  it('refuses a doc_uri longer than 4096 characters, saying what it is for', () => {
    expect(problemOf({ doc_uri: 'd'.repeat(4097) })).toBe(
      'item 1: doc_uri: a text of 4097 characters, expected a document id of at most 4096 (check that results maps doc_uri to an id, not to the content)',
    );
  });

  it('keeps a numeric doc_uri up to 2^53 as its digits', () => {
    expect(hitSchema.parse({ doc_uri: 9_007_199_254_740_991 }).doc_uri).toBe('9007199254740991');
  });

  it('refuses a numeric doc_uri above 2^53 that JSON has already rounded, and says to send it as text', () => {
    // Prepare: JSON.parse rounds 12345678901234567890 to 12345678901234567000
    const answer: unknown = JSON.parse('{"hits": [{"id": 12345678901234567890, "score": 1}]}');

    // Act
    const mapped = mapAnswer(answer, RESULTS, undefined);

    // Assess
    expect(mapped).toEqual({
      ok: false,
      error: {
        kind: 'permanent',
        message:
          'results expression "hits[].{doc_uri: id, score: score}" gave a list that is not hits: item 1: doc_uri: the number 12345678901234567000 is above 2^53, so JSON may have changed its digits; expected ids above 9007199254740991 as text (fix: have the engine return doc_uri as a string)',
      },
    });
  });
});
