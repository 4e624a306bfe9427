import { describe, expect, it } from 'vitest';
import { documentRecall } from '../../../shared/metrics/document-recall.js';

describe('documentRecall', () => {
  it.each<[string, string[], string[], number | undefined]>([
    // |{a, c}| / |{a, b, c, d}| = 2 / 4
    ['half of the expected documents found', ['a', 'x', 'c'], ['a', 'b', 'c', 'd'], 2 / 4],
    ['every expected document found, in any order and depth', ['y', 'b', 'x', 'a'], ['a', 'b'], 1],
    ['none found', ['x', 'y'], ['a'], 0],
    ['an empty retrieved list', [], ['a', 'b'], 0],
    // a document retrieved twice is found once: 1 / 2, not 2 / 2
    ['a retrieved document repeated', ['a', 'a'], ['a', 'b'], 1 / 2],
    // the expected list repeats 'a': |{a}| / |{a, b}| = 1 / 2, not 2 / 3
    ['an expected document repeated', ['a'], ['a', 'a', 'b'], 1 / 2],
    // ids match exactly: no case folding or trimming
    ['ids that differ only in case', ['A', 'b '], ['a', 'b'], 0],
    ['no expected documents (undefined, not 0 or NaN)', ['a', 'b'], [], undefined],
    ['no expected and no retrieved documents', [], [], undefined],
  ])('%s', (_described, retrieved, expected, recall) => {
    expect(documentRecall(retrieved, expected)).toBe(recall);
  });

  it('accepts any iterables, read once', () => {
    // Prepare
    function* retrieved(): Generator<string> {
      yield 'a';
      yield 'c';
    }

    // Act
    const recall = documentRecall(retrieved(), new Set(['a', 'b', 'c']));

    // Assess
    expect(recall).toBe(2 / 3);
  });
});
